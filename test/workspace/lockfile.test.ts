import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { computeIntegrity } from "../../package/integrity.js";
import {
  type LockEntry,
  type Lockfile,
  readLockfile,
  storePath,
  writeLockfile,
} from "../../workspace/lockfile.js";
import { tempDir } from "../helpers/temp.js";

const integrity = computeIntegrity(Buffer.from("a tarball"));

function entry(overrides: Partial<LockEntry> = {}): LockEntry {
  return {
    version: "1.2.0",
    resolved: "http://127.0.0.1:4873/tarballs/guard-1.2.0.tgz",
    integrity,
    keyId: "key-1",
    signature: "c2lnbmF0dXJl",
    trust: "sandboxed",
    grants: ["fs.read:docs/**"],
    requested: ["fs.read:docs/**", "net:api.example.com"],
    main: "dist/index.js",
    files: { "dist/index.js": computeIntegrity(Buffer.from("bundle")) },
    ...overrides,
  };
}

/** A lock on disk whose one entry has `field` set to `value`, as a hand edit would leave it. */
async function lockWith(field: string, value: unknown): Promise<string> {
  const root = await tempDir();
  const written: Record<string, unknown> = { ...entry(), trust: "sandbox", [field]: value };
  await writeFile(
    join(root, "hookyard.lock"),
    JSON.stringify({ lockfileVersion: 1, packages: { guard: written } }),
  );
  return root;
}

describe("hookyard.lock", () => {
  it("reads back what was written, sorted by name, with the sandboxed level spelled as every lock spells it", async () => {
    const root = await tempDir();
    const lock: Lockfile = {
      lockfileVersion: 1,
      packages: { "zeta-guard": entry(), "@acme/audit": entry({ trust: "trusted", grants: [] }) },
    };
    await writeLockfile(root, lock);

    expect(await readLockfile(root)).toEqual(lock);
    const text = await readFile(join(root, "hookyard.lock"), "utf8");
    expect(Object.keys(JSON.parse(text).packages)).toEqual(["@acme/audit", "zeta-guard"]);
    expect(JSON.parse(text).packages["zeta-guard"].trust).toBe("sandbox");
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("is no lock when the file is missing, and an error naming the file when it is not JSON", async () => {
    const root = await tempDir();
    expect(await readLockfile(root)).toBeUndefined();

    await writeFile(join(root, "hookyard.lock"), '{"lockfileVersion": 1, "packages": {');
    const error = await readLockfile(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RUN_ERR_LOCK_INVALID" });
    expect((error as Error).message).toContain(join(root, "hookyard.lock"));
    expect((error as Error).message).toContain("not valid JSON");
  });

  // A lock is a file anyone can edit (or a merge can mangle): what it names must stay inside the
  // package's store folder, and what it grants must be grants.
  it.each([
    ["main", "../../../.ssh/id_rsa"],
    ["main", "/etc/passwd"],
    ["main", "dist\\..\\..\\evil.js"],
    ["main", "dist/index.js\0.png"],
    ["files", { "../outside.js": integrity }],
    ["integrity", "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="],
    ["grants", ["fs.read:docs/**", "root"]],
    ["trust", "sandboxed"],
    ["resolved", "tarballs/guard-1.2.0.tgz"],
    ["postinstall", "rm -rf ~"],
  ])("refuses an entry whose %s is %j, naming the field", async (field, value) => {
    const root = await lockWith(field, value);
    const error = await readLockfile(root).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RUN_ERR_LOCK_INVALID" });
    expect((error as Error).message).toContain(`packages.guard`);
    expect((error as Error).message).toMatch(new RegExp(`\\b${field}\\b`));
  });

  it("refuses a package name that is no package name, and a lock version it does not know", async () => {
    const root = await tempDir();
    await writeFile(
      join(root, "hookyard.lock"),
      JSON.stringify({ lockfileVersion: 1, packages: { "../store": { ...entry(), trust: "sandbox" } } }),
    );
    await expect(readLockfile(root)).rejects.toMatchObject({ code: "RUN_ERR_LOCK_INVALID" });

    await writeFile(join(root, "hookyard.lock"), JSON.stringify({ lockfileVersion: 2, packages: {} }));
    await expect(readLockfile(root)).rejects.toThrow(/lockfileVersion/);
  });

  it("puts a package's files in a store folder named by its integrity, and refuses an integrity that names none", async () => {
    const root = await tempDir();
    const folder = storePath(root, integrity);
    expect(folder.startsWith(join(root, ".hookyard", "store"))).toBe(true);
    expect(folder).toMatch(/[0-9a-f]{128}$/);
    expect(() => storePath(root, "sha512-../../..")).toThrow(
      expect.objectContaining({ code: "RUN_ERR_LOCK_INVALID" }),
    );
  });
});
