import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { integrityHex } from "../../../../../package/integrity.js";
import { startRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard, snapshot } from "./fixtures.js";

async function installed() {
  const registry = await startRegistry();
  await publishGuard(registry, "1.0.0");
  await publishGuard(registry, "2.0.0", {}, "notes");
  const ws = await emptyWorkspace();
  expect(
    (await cli(ws, "install", "guard", "--registry", registry.url, "--grant", "fs.read:docs", "--yes")).code,
  ).toBe(0);
  expect((await cli(ws, "install", "notes", "--registry", registry.url, "--yes")).code).toBe(0);
  const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
  const store = (name: string) =>
    join(ws, ".hookyard", "store", integrityHex(lock.packages[name].integrity) as string);
  return { registry, ws, lock, store };
}

describe("hookyard install (no name): exactly what hookyard.lock says", () => {
  it("restores a deleted store from the registry, without touching hookyard.json or the lock", async () => {
    const { ws, store } = await installed();
    const before = await snapshot(ws);
    await rm(join(ws, ".hookyard"), { recursive: true });
    const result = await cli(ws, "install");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("0 already in the store, 2 downloaded and verified");
    expect(await snapshot(ws)).toEqual(before);
    expect(await readFile(join(store("guard"), "package.json"), "utf8")).toContain('"guard"');
  });

  it("works with the registry down when the store holds the bytes", async () => {
    const { ws, registry } = await installed();
    await registry.close();
    const result = await cli(ws, "install");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("2 already in the store, 0 downloaded");
  });

  it("replaces a changed store file with the registry's verified bytes", async () => {
    const { ws, store } = await installed();
    const before = await snapshot(ws);
    await writeFile(
      join(store("guard"), "dist", "hook.js"),
      "export default { on: { tool_before() { return { block: 'x' } } } };\n",
    );
    const result = await cli(ws, "install");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("does not match hookyard.lock");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("a changed store with the registry down fails, naming the registry", async () => {
    const { ws, store, registry } = await installed();
    await registry.close();
    await writeFile(join(store("guard"), "README.md"), "changed\n");
    const result = await cli(ws, "install");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("CLI_ERR_REGISTRY_UNREACHABLE");
  });

  it("refuses (exit 3, workspace as it was) a lock whose integrity does not match the registry's bytes", async () => {
    const { ws, lock } = await installed();
    // Point guard at notes' integrity: the registry's guard bytes no longer match the lock.
    lock.packages.guard.integrity = lock.packages.notes.integrity;
    await writeFile(join(ws, "hookyard.lock"), JSON.stringify(lock, null, 2));
    await rm(join(ws, ".hookyard", "store"), { recursive: true });
    const before = await snapshot(ws);
    const result = await cli(ws, "install");
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/CLI_ERR_(SIGNATURE|INTEGRITY)/);
    expect(await snapshot(ws)).toEqual(before);
  });

  it("refuses a lock whose signature does not verify with the pinned key", async () => {
    const { ws, lock } = await installed();
    lock.packages.guard.signature = lock.packages.notes.signature;
    await writeFile(join(ws, "hookyard.lock"), JSON.stringify(lock, null, 2));
    await rm(join(ws, ".hookyard", "store"), { recursive: true });
    const before = await snapshot(ws);
    const result = await cli(ws, "install");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("CLI_ERR_SIGNATURE");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("says there is nothing to install without a lock, and rejects an invalid lock", async () => {
    const ws = await emptyWorkspace();
    const nothing = await cli(ws, "install");
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain("nothing to install");
    await writeFile(join(ws, "hookyard.lock"), "{ not json");
    const bad = await cli(ws, "install");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^hookyard: RUN_ERR_LOCK_INVALID: .*hookyard\.lock is not valid JSON/);
  });
});
