import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../helpers/run-cli.js";
import { tempDir } from "../../../helpers/temp.js";
import {
  hookPackage,
  type PackageSpec,
  publish,
  startRegistry,
  type TestRegistry,
  tokenFor,
} from "../../../registry/helpers.js";

interface Published {
  integrity: string;
  keyId: string;
}

async function publishVersion(
  reg: TestRegistry,
  token: string,
  spec: PackageSpec & { version: string },
): Promise<Published> {
  const answer = await publish(reg, token, await hookPackage(spec), spec.name, spec.version);
  expect(answer.status, answer.bytes.toString()).toBe(201);
  return answer.json;
}

async function yank(reg: TestRegistry, name: string, version: string, reason: string): Promise<void> {
  const answer = await reg.call(`/v1/packages/${name}/${version}/yank`, {
    method: "POST",
    token: reg.admin,
    json: { reason },
  });
  expect(answer.status).toBe(200);
}

async function advise(reg: TestRegistry, advisory: Record<string, string>): Promise<number> {
  const answer = await reg.call("/v1/advisories", { method: "POST", token: reg.admin, json: advisory });
  expect(answer.status, answer.bytes.toString()).toBe(201);
  return answer.json.id;
}

/** `hookyard info` against the registry, never reading the user's own config. */
async function info(reg: TestRegistry, ...args: string[]) {
  const home = await tempDir();
  return runCli(["info", ...args, "--registry", reg.url], {
    cwd: home,
    env: { HOOKYARD_CONFIG: join(home, "config.json") },
  });
}

const guardHook = {
  main: "dist/hook.js",
  events: ["tool_before"],
  priority: 50,
  matcher: { tool: "^bash$" },
  capabilities: { fs: { read: ["docs"] }, net: ["api.example.com:443"], process: ["git"] },
  effects: ["block", "inject"],
};

describe("hookyard info", () => {
  it("says what the package asks for in plain words, riskiest first, with the highest risk", async () => {
    const reg = await startRegistry();
    const alice = await tokenFor(reg, "alice");
    const published = await publishVersion(reg, alice, {
      name: "guard",
      version: "1.0.0",
      description: "stops risky shell commands",
      manifest: { hookyard: guardHook },
    });

    const result = await info(reg, "guard");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out.startsWith("guard@1.0.0\nstops risky shell commands\n")).toBe(true);
    const capabilities = out.slice(out.indexOf("Capabilities it requests"));
    const lines = capabilities.split("\n").slice(1, 5);
    expect(lines[0]).toMatch(/^ {2}high +runs git +process:git$/);
    expect(lines[1]).toMatch(/^ {2}medium +connects to api\.example\.com:443 +net:api\.example\.com:443$/);
    expect(lines[2]).toMatch(/^ {2}low +reads files under docs +fs\.read:docs$/);
    expect(lines[3]).toBe("Risk level: high");

    expect(out).toMatch(/^published +\S+ by alice$/m);
    expect(out).toMatch(new RegExp(`^integrity +${published.integrity.replace(/[+/]/g, "\\$&")}$`, "m"));
    expect(out).toContain(`registry key ${published.keyId}`);
    expect(out).toMatch(/^events +tool_before \(before a tool runs\)$/m);
    expect(out).toMatch(/^priority +50$/m);
    expect(out).toMatch(/^matcher +tool matches \^bash\$$/m);
    expect(out).toMatch(/^ {2}block +can stop what the agent is about to do/m);
    expect(out).toMatch(/^ {2}inject +can add text to what the model sees$/m);
    expect(out).toMatch(/^ {2}1\.0\.0 +\d{4}-\d\d-\d\d +latest$/m);
    // Every capability it requests as a --grant: pasted into CI, the hook can do its job.
    expect(out.trimEnd().split("\n").at(-1)).toBe(
      "Install: hookyard install guard --sandbox --grant fs.read:docs --grant net:api.example.com:443 --grant process:git",
    );

    const json = JSON.parse((await info(reg, "guard", "--json")).stdout);
    expect(json).toMatchObject({
      name: "guard",
      version: "1.0.0",
      latest: "1.0.0",
      publishedBy: "alice",
      integrity: published.integrity,
      keyId: published.keyId,
      tarball: `${reg.url}/v1/packages/guard/1.0.0/tarball`,
      yanked: false,
      hook: { events: [{ point: "tool_before" }], priority: 50, matcher: { tool: "^bash$" } },
      capabilities: { risk: "high" },
      install:
        "hookyard install guard --sandbox --grant fs.read:docs --grant net:api.example.com:443 --grant process:git",
    });
    expect(json.capabilities.lines.map((l: { grant: string }) => l.grant)).toEqual([
      "process:git",
      "net:api.example.com:443",
      "fs.read:docs",
    ]);
  });

  it("a package that asks for nothing says so, and the default priority is named as such", async () => {
    const reg = await startRegistry();
    await publishVersion(reg, reg.admin, {
      name: "quiet",
      version: "1.0.0",
      manifest: { hookyard: { main: "dist/hook.js", events: ["notify"] } },
    });
    const result = await info(reg, "quiet");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("  requests no capabilities\n");
    expect(result.stdout).not.toContain("Risk level");
    expect(result.stdout).toMatch(/^priority +100 \(the default\)$/m);
    expect(result.stdout).toContain("none: it only observes");
  });

  it("shows a yanked version only when named exactly, marked with its reason", async () => {
    const reg = await startRegistry();
    for (const version of ["1.0.0", "1.1.0"])
      await publishVersion(reg, reg.admin, { name: "guard", version });
    await yank(reg, "guard", "1.1.0", "blocks every command");

    const latest = await info(reg, "guard");
    expect(latest.stdout.startsWith("guard@1.0.0\n")).toBe(true);
    expect(latest.stdout).not.toContain("YANKED");
    expect(latest.stdout).toMatch(/^ {2}1\.1\.0 +\S+ +yanked: blocks every command$/m);

    const yanked = await info(reg, "guard@1.1.0");
    expect(yanked.code).toBe(0);
    expect(yanked.stdout.startsWith("guard@1.1.0\n")).toBe(true);
    expect(yanked.stdout).toContain("\nYANKED: blocks every command\n");
    // Installing a yanked version is not what to suggest: the latest is.
    expect(yanked.stdout).toContain("Install: hookyard install guard --sandbox");
    expect(JSON.parse((await info(reg, "guard@1.1.0", "--json")).stdout)).toMatchObject({
      version: "1.1.0",
      yanked: true,
      yankedReason: "blocks every command",
    });
  });

  it("resolves a range to the highest version that is neither yanked nor a prerelease", async () => {
    const reg = await startRegistry();
    for (const version of ["1.0.0", "1.1.0", "1.2.0", "1.3.0-beta.1", "2.0.0"]) {
      await publishVersion(reg, reg.admin, { name: "guard", version });
    }
    await yank(reg, "guard", "1.2.0", "broken");
    const version = async (spec: string) => JSON.parse((await info(reg, spec, "--json")).stdout).version;

    expect(await version("guard@^1.0.0")).toBe("1.1.0");
    expect(await version("guard@1.x")).toBe("1.1.0");
    expect(await version("guard@>=1.1.0")).toBe("2.0.0");
    expect(await version("guard@1.3.0-beta.1")).toBe("1.3.0-beta.1");
    expect(await version("guard")).toBe("2.0.0");

    const pinned = await info(reg, "guard@1.1.0");
    expect(pinned.stdout).toContain("Install: hookyard install guard@1.1.0 --sandbox");

    const none = await info(reg, "guard@~1.2.0");
    expect(none.code).toBe(1);
    expect(none.stdout).toBe("");
    expect(none.stderr).toMatch(/^hookyard: CLI_ERR_NO_MATCHING_VERSION: .*~1\.2\.0/);
    expect(none.stderr).toContain("1.2.0 (yanked)");
    expect(none.stderr).toContain("1.1.0");
  });

  it("lists advisories that apply to this version apart from the others", async () => {
    const reg = await startRegistry();
    for (const version of ["1.0.0", "2.0.0"])
      await publishVersion(reg, reg.admin, { name: "guard", version });
    const old = await advise(reg, { package: "guard", range: "<2.0.0", severity: "high", text: "leaks env" });
    const future = await advise(reg, { package: "guard", range: ">=2.0.0", severity: "low", text: "noisy" });

    const result = await info(reg, "guard@1.0.0");
    const out = result.stdout;
    const mine = out.slice(out.indexOf("Advisories for 1.0.0"), out.indexOf("Other advisories"));
    expect(mine).toMatch(new RegExp(`high +versions <2\\.0\\.0 +leaks env \\(advisory ${old}\\)`));
    expect(mine).not.toContain("noisy");
    expect(out.slice(out.indexOf("Other advisories (not 1.0.0)"))).toContain("noisy");

    const latest = JSON.parse((await info(reg, "guard", "--json")).stdout);
    expect(latest.advisories.affecting.map((a: { id: number }) => a.id)).toEqual([future]);
    expect(latest.advisories.other.map((a: { id: number }) => a.id)).toEqual([old]);
  });

  it("shows a deprecation notice for a deprecated version", async () => {
    const reg = await startRegistry();
    await publishVersion(reg, reg.admin, { name: "guard", version: "1.0.0" });
    const answer = await reg.call("/v1/packages/guard/1.0.0/deprecate", {
      method: "POST",
      token: reg.admin,
      json: { message: "use shell-guard instead" },
    });
    expect(answer.status).toBe(200);
    const result = await info(reg, "guard");
    expect(result.stdout).toContain("\nDEPRECATED: use shell-guard instead\n");
    expect(result.stdout).toMatch(/^ {2}1\.0\.0 +\S+ +latest; deprecated: use shell-guard instead$/m);
  });

  it("an unknown package is CLI_ERR_NOT_FOUND with exit 1", async () => {
    const reg = await startRegistry();
    const result = await info(reg, "no-such-hook");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^hookyard: CLI_ERR_NOT_FOUND: .*no-such-hook/);
  });

  it("a malformed package argument is a usage error (exit 2)", async () => {
    const reg = await startRegistry();
    for (const bad of ["guard@", "Guard", "guard@not a range!", "@"]) {
      const result = await info(reg, bad);
      expect(result.code, bad).toBe(2);
      expect(result.stderr, bad).toContain("CLI_ERR_USAGE");
    }
  });

  it("a package published without a description is still shown", async () => {
    const reg = await startRegistry();
    await publishVersion(reg, reg.admin, {
      name: "bare",
      version: "1.0.0",
      manifest: { description: undefined },
    });
    const result = await info(reg, "bare");
    expect(result.stderr).toBe("");
    expect(result.stdout.startsWith("bare@1.0.0\n\n")).toBe(true);
  });

  it("a publisher's escape sequences and line breaks never reach the terminal", async () => {
    const reg = await startRegistry();
    const evil = "fine\u001b[2J\u001b[1;1Hsafe\r\nlooking\u202etxt.exe";
    await publishVersion(reg, reg.admin, { name: "guard", version: "1.0.0", description: evil });
    await publishVersion(reg, reg.admin, {
      name: "guard",
      version: "1.0.1",
      manifest: { hookyard: { ...guardHook, capabilities: { fs: { read: ["docs\u001b[31m"] } } } },
    });
    await yank(reg, "guard", "1.0.0", `bad\u001b]0;title\u0007 one`);
    await advise(reg, { package: "guard", range: "*", severity: "low", text: "see\u001b[8m hidden" });
    for (const spec of ["guard@1.0.0", "guard@1.0.1"]) {
      const result = await info(reg, spec);
      expect(result.code).toBe(0);
      for (const control of ["\u001b", "\u0007", "\r", "\u202e"])
        expect(result.stdout).not.toContain(control);
    }
    const shown = await info(reg, "guard@1.0.0");
    expect(shown.stdout).toContain("fine [2J [1;1Hsafe looking txt.exe");
    expect(shown.stdout).toContain("YANKED: bad ]0;title one");
  });
});
