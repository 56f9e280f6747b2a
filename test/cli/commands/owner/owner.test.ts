import { describe, expect, it } from "vitest";
import { publishAs, registryUser } from "../../../helpers/registry-user.js";
import { hookPackage, publish, startRegistry } from "../../../registry/helpers.js";

describe("hookyard owner", () => {
  it("ls, add and rm change who may publish: after rm, the removed owner's publish is refused", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const bob = await registryUser(reg, "bob");
    await publishAs(reg, alice.token, "guard");

    const ls = await bob.run(["owner", "ls", "guard"], {});
    expect(ls.code).toBe(0);
    expect(ls.stdout).toBe(`owners of guard on ${reg.url}: alice\n`);

    const added = await alice.run(["owner", "add", "bob", "guard"]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(
      `added bob to the owners of guard on ${reg.url} (now: alice, bob): bob may now publish, yank and deprecate versions of guard and change its owners\n`,
    );
    await publishAs(reg, bob.token, "guard", "1.1.0");
    const twice = await alice.run(["owner", "add", "bob", "guard"]);
    expect(twice.stdout).toContain("bob is already an owner of guard");

    const removed = await alice.run(["owner", "rm", "bob", "guard"]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain("removed bob from the owners of guard");
    expect(removed.stdout).toContain("(now: alice): bob can no longer publish or manage it");
    const refused = await publish(
      reg,
      bob.token,
      await hookPackage({ name: "guard", version: "1.2.0" }),
      "guard",
      "1.2.0",
    );
    expect(refused.status).toBe(403);
    const yank = await bob.run(["yank", "guard@1.1.0", "--reason", "x"]);
    expect(yank.code).toBe(1);
    expect(yank.stderr).toContain("bob is not an owner of guard");

    const notOwner = await alice.run(["owner", "rm", "bob", "guard"]);
    expect(notOwner.code).toBe(0);
    expect(notOwner.stdout).toContain("bob is not an owner of guard on");
    expect(notOwner.stdout).toContain("nothing changed");
  });

  it("refuses to remove the last owner, as the registry says, and changes nothing", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    await publishAs(reg, alice.token, "guard");
    const last = await alice.run(["owner", "rm", "alice", "guard"]);
    expect(last.code).toBe(1);
    expect(last.stderr).toContain("guard would have no owner left");
    expect(last.stderr).toContain("REG_ERR_LAST_OWNER");
    expect(last.stderr).toContain("`hookyard owner add <someone> guard` first, then remove alice");
    expect((await alice.run(["owner", "ls", "guard"])).stdout).toContain(": alice\n");
  });

  it("refuses a non-owner, an unknown owner or package, and malformed arguments", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const mallory = await registryUser(reg, "mallory");
    await publishAs(reg, alice.token, "guard");

    const notOwner = await mallory.run(["owner", "add", "mallory", "guard"]);
    expect(notOwner.code).toBe(1);
    expect(notOwner.stderr).toContain("REG_ERR_FORBIDDEN");
    expect(notOwner.stderr).toContain("`hookyard owner ls guard`");
    expect((await alice.run(["owner", "ls", "guard", "--json"])).stdout).not.toContain("mallory");

    const unknownOwner = await alice.run(["owner", "add", "nobody", "guard"]);
    expect(unknownOwner.code).toBe(1);
    expect(unknownOwner.stderr).toContain("REG_ERR_OWNER_NOT_FOUND");
    expect(unknownOwner.stderr).toContain("hookyard registry token create --owner nobody");

    const unknownPackage = await alice.run(["owner", "ls", "nosuch"]);
    expect(unknownPackage.code).toBe(1);
    expect(unknownPackage.stderr).toContain("CLI_ERR_NOT_FOUND");

    for (const args of [
      ["owner", "add", "Bob Smith", "guard"],
      ["owner", "add", "bob", "Not/A/Name"],
      ["owner", "ls", "@"],
      ["owner", "rm", "bob"],
    ]) {
      const malformed = await alice.run(args);
      expect(malformed.code, args.join(" ")).toBe(2);
    }
  });

  it("works on a scope: its owners manage every package in it, and ls of a scoped package shows both", async () => {
    const reg = await startRegistry();
    const alice = await registryUser(reg, "alice");
    const bob = await registryUser(reg, "bob");
    await publishAs(reg, alice.token, "@acme/guard");

    const added = await alice.run(["owner", "add", "bob", "@acme"]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("added bob to the owners of the scope @acme on");
    expect(added.stdout).toContain("may now publish new packages in @acme and manage every package in it");
    await publishAs(reg, bob.token, "@acme/other");
    const ls = await alice.run(["owner", "ls", "@acme/guard"]);
    expect(ls.stdout).toBe(
      `owners of @acme/guard on ${reg.url}: alice\nowners of its scope @acme (they manage every package in it): alice, bob\n`,
    );
    const yank = await bob.run(["yank", "@acme/guard@1.0.0", "--reason", "scope owner may"]);
    expect(yank.code).toBe(0);
  });
});
