import { describe, expect, it } from "vitest";
import { publishAs, registryUser } from "../../../helpers/registry-user.js";
import { runCli } from "../../../helpers/run-cli.js";
import { startRegistry } from "../../../registry/helpers.js";

describe("hookyard yank and unyank", () => {
  it("yanks one version with its reason: info shows it, ranges skip it, latest moves; unyank takes it back", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard", "1.0.0");
    await publishAs(reg, alice.token, "guard", "1.1.0");

    const yanked = await alice.run(["yank", "guard@1.1.0", "--reason", "blocks every git command"]);
    expect(yanked.stderr).toBe("");
    expect(yanked.code).toBe(0);
    expect(yanked.stdout).toContain(`yanked guard@1.1.0 on ${reg.url}: blocks every git command`);
    expect(yanked.stdout).toContain("latest is now 1.0.0");
    expect(yanked.stdout).toContain('still installs it, with the warning "guard@1.1.0 is yanked"');
    expect(yanked.stdout).toContain("hookyard unyank guard@1.1.0");

    const info = await alice.run(["info", "guard@1.1.0"]);
    expect(info.stdout).toContain("YANKED: blocks every git command");
    expect((await alice.run(["info", "guard@^1"])).stdout).toMatch(/^guard@1\.0\.0\n/);

    const again = await alice.run(["yank", "guard@1.1.0", "--reason", "really broken"]);
    expect(again.stdout).toContain("yanked again (the new reason replaces the old) guard@1.1.0");

    const undone = await alice.run(["unyank", "guard@1.1.0"]);
    expect(undone.code).toBe(0);
    expect(undone.stdout).toBe(
      `unyanked guard@1.1.0 on ${reg.url}: installs and version ranges may pick it again; latest is 1.1.0\n`,
    );
    expect((await alice.run(["info", "guard@1.1.0"])).stdout).not.toContain("YANKED");
    const twice = await alice.run(["unyank", "guard@1.1.0"]);
    expect(twice.stdout).toContain("guard@1.1.0 was not yanked");
  });

  it("what its output promises holds: install skips it, naming it installs it with a warning, audit reports it", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard", "1.0.0");
    await publishAs(reg, alice.token, "guard", "1.1.0");
    expect((await alice.run(["yank", "guard@1.1.0", "--reason", "blocks every git command"])).code).toBe(0);
    const user = await registryUser(reg, "carol");

    const latest = await user.run(["install", "guard", "--yes"], {});
    expect(latest.code).toBe(0);
    expect(latest.stdout).toContain("installed guard@1.0.0");
    const exact = await user.run(["install", "guard@1.1.0", "--yes"], {});
    expect(exact.code).toBe(0);
    expect(exact.stderr).toContain("warning: guard@1.1.0 is yanked: blocks every git command");
    expect(exact.stdout).toContain("installed guard@1.1.0");
    // audit asks each package's own registry (hookyard.lock), and takes no --registry.
    const audit = await runCli(["audit"], { cwd: user.cwd, env: { HOOKYARD_CONFIG: user.config } });
    expect(audit.stdout).toMatch(/moderate +yanked: blocks every git command/);
  });

  it("--json prints the version before and after, as the registry answered", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard");
    const result = await alice.run(["yank", "guard@1.0.0", "--reason", "bad", "--json"]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ registry: reg.url, name: "guard", version: "1.0.0" });
    expect(json.before.yanked).toBe(false);
    expect(json.after).toMatchObject({ yanked: true, yankedReason: "bad" });
    expect(json.latest).toBeUndefined();
  });

  it("refuses a non-owner, a wrong token, an unknown package or version, and a malformed argument, changing nothing", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const mallory = await registryUser(reg, "mallory");
    await publishAs(reg, alice.token, "guard");

    const notOwner = await mallory.run(["yank", "guard@1.0.0", "--reason", "mine now"]);
    expect(notOwner.code).toBe(1);
    expect(notOwner.stderr).toContain("CLI_ERR_REGISTRY_REFUSED");
    expect(notOwner.stderr).toContain("mallory is not an owner of guard (its owners: alice)");
    expect(notOwner.stderr).toContain("`hookyard owner ls guard` lists them");

    const wrongToken = await alice.run(["yank", "guard@1.0.0", "--reason", "x"], {
      HOOKYARD_TOKEN: "hyk_not-a-real-one",
    });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain("REG_ERR_TOKEN_INVALID");
    expect(wrongToken.stderr).toContain(`hookyard login --registry ${reg.url}`);
    expect(wrongToken.stderr).not.toContain("not-a-real-one");

    const noVersion = await alice.run(["yank", "guard@9.9.9", "--reason", "x"]);
    expect(noVersion.code).toBe(1);
    expect(noVersion.stderr).toContain("CLI_ERR_NOT_FOUND");
    expect(noVersion.stderr).toContain("guard has no version 9.9.9");
    expect(noVersion.stderr).toContain("(its versions: 1.0.0)");

    const noPackage = await alice.run(["yank", "nosuch@1.0.0", "--reason", "x"]);
    expect(noPackage.code).toBe(1);
    expect(noPackage.stderr).toContain("CLI_ERR_NOT_FOUND");
    expect(noPackage.stderr).toContain("REG_ERR_PACKAGE_NOT_FOUND");

    for (const args of [
      ["yank", "guard@^1", "--reason", "x"],
      ["yank", "guard", "--reason", "x"],
      ["yank", "Not A Name@1.0.0", "--reason", "x"],
      ["yank", "guard@1.0.0", "--reason", "  "],
    ]) {
      const malformed = await alice.run(args);
      expect(malformed.code, args.join(" ")).toBe(2);
      expect(malformed.stderr, args.join(" ")).toContain("CLI_ERR_USAGE");
    }
    expect((await alice.run(["yank", "guard@1.0.0"])).code).toBe(2);
    expect((await alice.run(["info", "guard@1.0.0"])).stdout).not.toContain("YANKED");
  });

  it("without any token says so and names hookyard login", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard");
    const result = await alice.run(["yank", "guard@1.0.0", "--reason", "x"], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_TOKEN_MISSING");
    expect(result.stderr).toContain(`hookyard login --registry ${reg.url}`);
  });
});

describe("hookyard deprecate", () => {
  it("marks a version with a message that info shows; --undo takes it back", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard");
    const result = await alice.run(["deprecate", "guard@1.0.0", "use guard-ng instead"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`deprecated guard@1.0.0 on ${reg.url}: use guard-ng instead`);
    expect(result.stdout).toContain('every install of it now warns "guard@1.0.0 is deprecated: …"');
    expect((await alice.run(["info", "guard"])).stdout).toContain("DEPRECATED: use guard-ng instead");

    const undone = await alice.run(["deprecate", "guard@1.0.0", "--undo"]);
    expect(undone.code).toBe(0);
    expect(undone.stdout).toContain("guard@1.0.0 is no longer deprecated");
    expect((await alice.run(["info", "guard"])).stdout).not.toContain("DEPRECATED");
  });

  it("needs a message or --undo, not both nor neither; refuses a non-owner", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const bob = await registryUser(reg, "bob");
    await publishAs(reg, alice.token, "guard");
    const neither = await alice.run(["deprecate", "guard@1.0.0"]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('say why: hookyard deprecate guard@1.0.0 "<message>"');
    expect((await alice.run(["deprecate", "guard@1.0.0", "why", "--undo"])).code).toBe(2);
    const notOwner = await bob.run(["deprecate", "guard@1.0.0", "mine"]);
    expect(notOwner.code).toBe(1);
    expect(notOwner.stderr).toContain("REG_ERR_FORBIDDEN");
    expect((await alice.run(["info", "guard"])).stdout).not.toContain("DEPRECATED");
  });
});
