import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { integrityHex } from "../../../../../package/integrity.js";
import { startRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard, snapshot } from "./fixtures.js";

async function lockOf(ws: string) {
  return JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
}

async function guardInstalled() {
  const registry = await startRegistry();
  await publishGuard(registry, "1.0.0");
  const ws = await emptyWorkspace();
  const install = await cli(
    ws,
    "install",
    "guard",
    "--registry",
    registry.url,
    "--grant",
    "fs.read:docs",
    "--yes",
  );
  expect(install.code).toBe(0);
  return { registry, ws };
}

describe("hookyard update", () => {
  it("under --yes refuses a version that requests a new capability; the old version stays, untouched", async () => {
    const { registry, ws } = await guardInstalled();
    await publishGuard(registry, "1.1.0", {
      fs: { read: ["docs"] },
      net: ["api.example.com:443"],
      process: ["git"],
    });
    const before = await snapshot(ws);
    const result = await cli(ws, "update", "--yes");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("CLI_ERR_CAPABILITIES_CHANGED");
    expect(result.stderr).toContain("runs git (high risk) [process:git]");
    expect(result.stderr).toContain("guard@1.0.0 stays installed");
    expect(result.stderr).toContain("--grant process:git");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("with --grant for the new capability updates, keeping the old grants that still apply", async () => {
    const { registry, ws } = await guardInstalled();
    await publishGuard(registry, "1.1.0", { fs: { read: ["docs"] }, process: ["git"] });
    const result = await cli(ws, "update", "guard", "--yes", "--grant", "process:git");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("updated guard 1.0.0 → 1.1.0");
    const entry = (await lockOf(ws)).packages.guard;
    expect(entry).toMatchObject({ version: "1.1.0", grants: ["fs.read:docs", "process:git"] });
    // The old version's bytes left the store with it; the new one's are there.
    expect(await readdir(join(ws, ".hookyard", "store"))).toEqual([integrityHex(entry.integrity)]);
  });

  it("does not carry over a grant the new version no longer requests, and reports up to date", async () => {
    const { registry, ws } = await guardInstalled();
    await publishGuard(registry, "1.2.0", { net: ["api.example.com:443"] });
    await publishGuard(registry, "2.0.0", { process: ["rm"] });
    const result = await cli(ws, "update", "--yes");
    expect(result.code).toBe(0);
    expect((await lockOf(ws)).packages.guard).toMatchObject({ version: "1.2.0", grants: [] });
    const again = await cli(ws, "update", "--yes");
    expect(again.stdout).toContain(
      "guard@1.2.0 is the newest version ^1.0.0 allows; 2.0.0 is outside that range: hookyard update guard --latest",
    );
  });

  it("names what is installed when asked for something that is not", async () => {
    const { ws } = await guardInstalled();
    const result = await cli(ws, "update", "nope");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_NOT_INSTALLED");
    expect(result.stderr).toContain("installed: guard");
  });
});

describe("hookyard grant, revoke, uninstall", () => {
  it("grants within the request, refuses beyond it, revokes", async () => {
    const { ws } = await guardInstalled();
    const granted = await cli(ws, "grant", "guard", "net:api.example.com:443");
    expect(granted.code).toBe(0);
    expect((await lockOf(ws)).packages.guard.grants).toEqual(["fs.read:docs", "net:api.example.com:443"]);
    const before = await snapshot(ws);
    const beyond = await cli(ws, "grant", "guard", "net:evil.example.com:443");
    expect(beyond.code).toBe(2);
    expect(beyond.stderr).toContain("does not request net:evil.example.com:443");
    expect(await snapshot(ws)).toEqual(before);
    const narrower = await cli(ws, "grant", "guard", "fs.read:docs/api");
    expect(narrower.code).toBe(0);
    expect(narrower.stderr).toContain("already has fs.read:docs, which covers fs.read:docs/api");
    expect((await lockOf(ws)).packages.guard.grants).toEqual(["fs.read:docs", "net:api.example.com:443"]);
    const revoked = await cli(ws, "revoke", "guard", "fs.read:docs");
    expect(revoked.code).toBe(0);
    expect((await lockOf(ws)).packages.guard.grants).toEqual(["net:api.example.com:443"]);
    await cli(ws, "revoke", "guard", "--all");
    expect((await lockOf(ws)).packages.guard.grants).toEqual([]);
  });

  it("a wider grant replaces the narrower one it covers; grant and revoke say what they changed", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    expect((await cli(ws, "install", "guard", "--registry", registry.url, "--yes")).code).toBe(0);
    const narrow = await cli(ws, "grant", "guard", "fs.read:docs/api");
    expect(narrow.stdout).toMatch(/^granted .*\[fs\.read:docs\/api\]$/m);
    const wide = await cli(ws, "grant", "guard", "fs.read:docs");
    expect(wide.stdout).toMatch(/^revoked .*\[fs\.read:docs\/api\]$/m);
    expect(wide.stdout).toMatch(/^granted .*\[fs\.read:docs\]$/m);
    expect((await lockOf(ws)).packages.guard.grants).toEqual(["fs.read:docs"]);
    const revoked = await cli(ws, "revoke", "guard", "fs.read:docs");
    expect(revoked.stdout).toMatch(/^revoked .*\[fs\.read:docs\]$/m);
    expect(revoked.stdout).toContain("guard@1.0.0 is granted: nothing");
    const again = await cli(ws, "revoke", "guard", "fs.read:docs");
    expect(again.stdout).toContain("nothing changed\n");
    expect(again.stderr).toContain("guard@1.0.0 was not granted fs.read:docs");
  });

  it("uninstall removes the lock entry, the hookyard.json entry and the store folder", async () => {
    const { ws } = await guardInstalled();
    const integrity = (await lockOf(ws)).packages.guard.integrity;
    const result = await cli(ws, "uninstall", "guard");
    expect(result.code).toBe(0);
    expect((await lockOf(ws)).packages).toEqual({});
    expect(JSON.parse(await readFile(join(ws, "hookyard.json"), "utf8")).community).toEqual({});
    expect(existsSync(join(ws, ".hookyard", "store", integrityHex(integrity) as string))).toBe(false);
    const again = await cli(ws, "uninstall", "guard");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("CLI_ERR_NOT_INSTALLED");
  });
});
