import { existsSync } from "node:fs";
import { readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeIntegrity, integrityHex } from "../../../../../package/integrity.js";
import { hookPackage, publish, startRegistry } from "../../../../registry/helpers.js";
import { cli, emptyWorkspace, publishGuard, snapshot, tamperingProxy } from "./fixtures.js";

async function readJson(file: string) {
  return JSON.parse(await readFile(file, "utf8"));
}

describe("hookyard install <name>", () => {
  it("installs sandboxed with only the granted capabilities, pins the key and writes lock, config and store", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const result = await cli(
      ws,
      "install",
      "guard",
      "--registry",
      registry.url,
      "--grant",
      "fs.read:docs",
      "--yes",
    );
    expect(result.stderr).toContain("pinned");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("installed guard@1.0.0 (sandboxed)");
    expect(result.stdout).toMatch(/granted: +reads files under docs \(low risk\) \[fs\.read:docs\]/);
    expect(result.stdout).toMatch(/not granted: connects to api\.example\.com:443 \(medium risk\)/);

    const lock = await readJson(join(ws, "hookyard.lock"));
    const entry = lock.packages.guard;
    expect(entry).toMatchObject({
      version: "1.0.0",
      trust: "sandbox",
      grants: ["fs.read:docs"],
      requested: ["fs.read:docs", "net:api.example.com:443"],
      main: "dist/hook.js",
    });
    const tarball = await registry.call("/v1/packages/guard/1.0.0/tarball");
    expect(entry.integrity).toBe(computeIntegrity(tarball.bytes));
    const config = await readJson(join(ws, "hookyard.json"));
    expect(config.community).toEqual({ guard: "^1.0.0" });
    const keys = (await registry.call("/v1/keys")).json.keys;
    expect(config.keys[registry.url]).toEqual([{ keyId: keys[0].keyId, publicKey: keys[0].publicKey }]);
    const store = join(ws, ".hookyard", "store", integrityHex(entry.integrity) as string);
    expect((await stat(store)).mode & 0o777).toBe(0o755);
    expect((await readdir(store, { recursive: true })).sort()).toEqual([
      "README.md",
      "dist",
      "dist/hook.js",
      "package.json",
    ]);
    expect(computeIntegrity(await readFile(join(store, "dist/hook.js")))).toBe(entry.files["dist/hook.js"]);
  });

  it("outside a workspace makes one, says so once, and keeps the store out of git", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const first = await cli(ws, "install", "guard", "--registry", registry.url, "--yes");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain(
      `no hookyard workspace was found at or above this folder, so one was made in ${ws}`,
    );
    expect(await readFile(join(ws, ".hookyard", ".gitignore"), "utf8")).toMatch(/^store\/$/m);
    expect(existsSync(join(ws, "hookyard.json"))).toBe(true);
    const again = await cli(ws, "install", "guard", "--registry", registry.url, "--yes");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain("was made");
  });

  it("a name the registry does not have says which registry was asked", async () => {
    const registry = await startRegistry();
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "gaurd", "--registry", registry.url, "--yes");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `CLI_ERR_NOT_FOUND: there is no package gaurd on ${registry.url} (REG_ERR_PACKAGE_NOT_FOUND)`,
    );
    expect(await readdir(ws)).toEqual([]);
  });

  it("refuses a grant beyond what the package requests, and writes nothing", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const result = await cli(
      ws,
      "install",
      "guard",
      "--registry",
      registry.url,
      "--grant",
      "fs.read:.",
      "--yes",
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("CLI_ERR_GRANT");
    expect(result.stderr).toContain("does not request fs.read:.");
    expect(existsSync(join(ws, "hookyard.lock"))).toBe(false);
    expect(existsSync(join(ws, "hookyard.json"))).toBe(false);
    expect(existsSync(join(ws, ".hookyard", "store"))).toBe(false);
  });

  it("picks the highest non-yanked, non-prerelease version in range", async () => {
    const registry = await startRegistry();
    for (const v of ["1.0.0", "1.2.0", "1.3.0", "1.4.0-beta.1", "2.0.0"]) await publishGuard(registry, v);
    await registry.call("/v1/packages/guard/1.3.0/yank", {
      method: "POST",
      token: registry.admin,
      json: { reason: "broken" },
    });
    const ws = await emptyWorkspace();
    const first = await cli(ws, "install", "guard@1.0.0", "--registry", registry.url, "--yes");
    expect(first.stdout).toContain("installed guard@1.0.0");
    const result = await cli(ws, "install", "guard@^1.0.0", "--registry", registry.url, "--yes");
    expect(result.stdout).toContain("installed guard@1.2.0");
    // 1.0.0's folder went with it: the store holds what the lock names, and nothing else.
    const lock = await readJson(join(ws, "hookyard.lock"));
    expect(await readdir(join(ws, ".hookyard", "store"))).toEqual([
      integrityHex(lock.packages.guard.integrity),
    ]);
    const none = await cli(ws, "install", "guard@^3", "--registry", registry.url, "--yes");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("CLI_ERR_NO_MATCHING_VERSION");
    expect(none.stderr).toContain("1.3.0 (yanked)");
  });

  it("refuses `name@` (an empty range semver would read as any version), and writes nothing", async () => {
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "guard@", "--registry", "http://127.0.0.1:9", "--yes");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("names no version after the @");
    expect(await readdir(ws)).toEqual([]);
  });

  it("shows a requested capability's escape sequences as text, never to the terminal", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0", { fs: { read: ["docs/\u001b[2Jx"] } });
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "guard", "--registry", registry.url, "--yes");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("not granted: reads files under docs/");
    expect(result.stdout).not.toContain("\u001b");
  });

  it("a manifest whose main is written ./dist/hook.js installs and then loads", async () => {
    const registry = await startRegistry();
    const tarball = await hookPackage({
      name: "dotted",
      manifest: { hookyard: { main: "./dist/hook.js", events: ["tool_before"], effects: [] } },
    });
    expect((await publish(registry, registry.admin, tarball, "dotted")).status).toBe(201);
    const ws = await emptyWorkspace();
    expect((await cli(ws, "install", "dotted", "--registry", registry.url, "--yes")).code).toBe(0);
    const list = await cli(ws, "list");
    expect(list.stderr).not.toContain("RUN_ERR_STORE_MISMATCH");
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("dotted@1.0.0");
  });

  it("installs --trust as trusted, with no grants", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "guard", "--trust", "--registry", registry.url);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("(trusted: runs in-process)");
    expect((await readJson(join(ws, "hookyard.lock"))).packages.guard).toMatchObject({
      trust: "trusted",
      grants: [],
    });
    const both = await cli(ws, "install", "guard", "--trust", "--sandbox", "--registry", registry.url);
    expect(both.code).toBe(2);
  });
});

describe("hookyard install refuses what it cannot verify (exit 3, workspace unchanged)", () => {
  it("a registry that answers for one package with another's document, or lists a version under another's entry", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    await publishGuard(registry, "1.1.0");
    await publishGuard(registry, "1.0.0", {}, "notes");
    const notes = (await registry.call("/v1/packages/notes")).bytes;
    const proxy = await tamperingProxy(registry.url, (path, body) => {
      return path === "/v1/packages/guard" ? notes : body;
    });
    const ws = await emptyWorkspace();
    const before = await snapshot(ws);
    const swapped = await cli(ws, "install", "guard", "--registry", proxy, "--yes");
    expect(swapped.code).toBe(3);
    expect(swapped.stderr).toContain('answered with the document of "notes", not of guard');
    expect(await snapshot(ws)).toEqual(before);

    const downgrade = await tamperingProxy(registry.url, (path, body) => {
      if (path !== "/v1/packages/guard") return body;
      const doc = JSON.parse(body.toString());
      doc.versions["1.1.0"] = doc.versions["1.0.0"];
      return Buffer.from(JSON.stringify(doc));
    });
    const older = await cli(ws, "install", "guard@1.1.0", "--registry", downgrade, "--yes");
    expect(older.code).toBe(3);
    expect(older.stderr).toContain("lists version 1.1.0 with the entry of version 1.0.0");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("a registry URL with a user name or password (the lock would record it)", async () => {
    const ws = await emptyWorkspace();
    const result = await cli(
      ws,
      "install",
      "guard",
      "--registry",
      "http://alice:s3cret@127.0.0.1:9",
      "--yes",
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("holds a user name or password");
    expect(await readdir(ws)).toEqual([]);
  });

  it("a tarball changed on the way", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const proxy = await tamperingProxy(registry.url, (path, body) => {
      if (!path.endsWith("/tarball")) return body;
      const changed = Buffer.from(body);
      changed[changed.length - 10] = (changed[changed.length - 10] ?? 0) ^ 1;
      return changed;
    });
    const ws = await emptyWorkspace();
    await writeFile(join(ws, "hookyard.json"), '{ "hooks": {} }\n');
    const before = await snapshot(ws);
    const result = await cli(ws, "install", "guard", "--registry", proxy, "--yes");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("CLI_ERR_INTEGRITY");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("metadata whose integrity was swapped (the signature no longer verifies)", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    await publishGuard(registry, "1.0.1", { fs: { read: ["."] } });
    const other = (await registry.call("/v1/packages/guard")).json.versions["1.0.1"];
    const proxy = await tamperingProxy(registry.url, (path, body) => {
      if (path !== "/v1/packages/guard") return body;
      const doc = JSON.parse(body.toString());
      // Serve 1.0.1's bytes as 1.0.0: a mirror that swaps what a version is.
      doc.versions["1.0.0"].integrity = other.integrity;
      doc.versions["1.0.0"].tarball = other.tarball;
      return Buffer.from(JSON.stringify(doc));
    });
    const ws = await emptyWorkspace();
    const before = await snapshot(ws);
    const result = await cli(ws, "install", "guard@1.0.0", "--registry", proxy, "--yes");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("CLI_ERR_SIGNATURE");
    expect(await snapshot(ws)).toEqual(before);
  });

  it("a blob tampered on the registry's disk", async () => {
    const registry = await startRegistry();
    await publishGuard(registry, "1.0.0");
    const integrity = (await registry.call("/v1/packages/guard")).json.versions["1.0.0"].integrity;
    const blobs = join(registry.dataDir, "blobs");
    const blob = (await readdir(blobs, { recursive: true })).find((f) =>
      f.includes(integrityHex(integrity) as string),
    );
    const file = join(blobs, blob as string);
    const bytes = await readFile(file);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 1;
    await writeFile(file, bytes);
    const ws = await emptyWorkspace();
    const result = await cli(ws, "install", "guard", "--registry", registry.url, "--yes");
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("CLI_ERR_INTEGRITY");
    expect(existsSync(join(ws, "hookyard.lock"))).toBe(false);
    expect(existsSync(join(ws, ".hookyard", "store"))).toBe(false);
  });

  it("a registry that now signs with another key, until --accept-key re-pins it", async () => {
    const root = await emptyWorkspace();
    const first = await startRegistry({ root });
    await publishGuard(first, "1.0.0");
    const port = new URL(first.url).port;
    const ws = await emptyWorkspace();
    expect((await cli(ws, "install", "guard", "--registry", first.url, "--yes")).code).toBe(0);
    await first.close();
    // The operator lost the key: the registry makes a new one and signs new versions with it.
    await rm(join(first.dataDir, "keys"), { recursive: true, force: true });
    const second = await startRegistry({ root, dataDir: first.dataDir, port: Number(port) });
    // A restart makes no new admin token: the first one is still valid.
    await publishGuard({ ...second, admin: first.admin }, "1.1.0");
    const before = await snapshot(ws);
    const url = `http://127.0.0.1:${port}`;
    const refused = await cli(ws, "install", "guard@1.1.0", "--registry", url, "--yes");
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("CLI_ERR_KEY_CHANGED");
    expect(await snapshot(ws)).toEqual(before);
    const newKey = (await second.call("/v1/keys")).json.keys[0].keyId as string;
    expect(refused.stderr).toContain(`--accept-key ${newKey}`);
    const accepted = await cli(
      ws,
      "install",
      "guard@1.1.0",
      "--registry",
      url,
      "--yes",
      "--accept-key",
      newKey,
    );
    expect(accepted.code).toBe(0);
    const pins = (await readJson(join(ws, "hookyard.json"))).keys[url].map((k: { keyId: string }) => k.keyId);
    expect(pins).toHaveLength(2);
    expect(pins[1]).toBe(newKey);
    // The old pin stays: what the lock holds from before the change still verifies.
    await rm(join(ws, ".hookyard", "store"), { recursive: true });
    const fromLock = await cli(ws, "install");
    expect(fromLock.code, fromLock.stderr).toBe(0);
  });
});
