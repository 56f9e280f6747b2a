import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { build } from "esbuild";
import { Parser, type ReadEntry } from "tar";
import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { type PackEntry, packTarball } from "../../../package/tarball/pack.js";
import { tempDir } from "../../helpers/temp.js";
import { processWaitMs } from "../../helpers/timeouts.js";

const packSource = fileURLToPath(new URL("../../../package/tarball/pack.ts", import.meta.url));
const sha512 = (bytes: Buffer) => createHash("sha512").update(bytes).digest("base64");

const entries: PackEntry[] = [
  { path: "package.json", data: '{"name":"demo","version":"1.0.0"}\n' },
  { path: "dist/hook.js", data: Buffer.from("export default {};\n") },
  { path: "bin/run.js", data: "#!/usr/bin/env node\n", executable: true },
  { path: "docs/ünïcödé/naïve.md", data: "# hi\n" },
  { path: `${"long-folder-name/".repeat(8)}file.js`, data: Buffer.alloc(1500, 7) },
  { path: "empty", data: "" },
];

interface ListedEntry {
  path: string;
  type: string;
  mode: number | undefined;
  uid: number | undefined;
  gid: number | undefined;
  uname: string | undefined;
  gname: string | undefined;
  mtime: string | undefined;
}

/** What node-tar (npm's own reader) sees in a .tgz, in archive order. */
async function listWithNodeTar(tgz: Buffer): Promise<ListedEntry[]> {
  const listed: ListedEntry[] = [];
  const parser = new Parser({ strict: true });
  parser.on("entry", (entry: ReadEntry) => {
    const { path, type, mode, uid, gid, uname, gname, mtime } = entry;
    listed.push({ path, type, mode, uid, gid, uname, gname, mtime: mtime?.toISOString() });
    entry.resume();
  });
  await new Promise<void>((resolve, reject) => {
    parser.on("error", reject);
    parser.on("end", resolve);
    parser.end(tgz);
  });
  return listed;
}

describe("packTarball", () => {
  it("gives byte-identical output for the same entries, in any order", async () => {
    const first = await packTarball(entries);
    const again = await packTarball(entries);
    const shuffled = await packTarball([...entries].reverse());
    expect(sha512(again)).toBe(sha512(first));
    expect(sha512(shuffled)).toBe(sha512(first));
  });

  it("gives the same bytes in another process", async () => {
    const dir = await tempDir();
    const bundle = join(dir, "pack.mjs");
    await build({
      entryPoints: [packSource],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: bundle,
    });
    const script = join(dir, "run.mjs");
    const encoded = JSON.stringify(
      entries.map((entry) => ({ ...entry, data: Buffer.from(entry.data).toString("base64") })),
    );
    await writeFile(
      script,
      `import { createHash } from "node:crypto";
import { packTarball } from "./pack.mjs";
const entries = ${encoded}.map((entry) => ({ ...entry, data: Buffer.from(entry.data, "base64") }));
process.stdout.write(createHash("sha512").update(await packTarball(entries)).digest("base64"));`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: processWaitMs });
    expect(stdout).toBe(sha512(await packTarball(entries)));
  });

  it("round-trips through inspectTarball", async () => {
    const inspected = await inspectTarball(await packTarball(entries));
    const expected = entries
      .map((entry) => ({
        path: entry.path,
        mode: entry.executable ? 0o755 : 0o644,
        data: Buffer.from(entry.data),
      }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));
    expect(inspected.files).toEqual(expected);
    expect(inspected.directories).toContain("docs/ünïcödé");
  });

  it("writes fixed times, owners and modes, parents before children, as node-tar reads them", async () => {
    const listed = await listWithNodeTar(await packTarball(entries));
    const folders = listed.filter((entry) => entry.type === "Directory").map((entry) => entry.path);
    expect(folders.slice(0, 4)).toEqual(["package/", "package/bin/", "package/dist/", "package/docs/"]);
    expect(listed.map((entry) => entry.path)).toEqual(
      [...listed.map((entry) => entry.path)].sort((a, b) =>
        a.replace(/\/$/, "") < b.replace(/\/$/, "") ? -1 : 1,
      ),
    );
    for (const entry of listed) {
      expect(entry).toMatchObject({
        uid: 0,
        gid: 0,
        uname: "",
        gname: "",
        mtime: "1985-10-26T08:15:00.000Z",
      });
      const executable = entry.type === "Directory" || entry.path === "package/bin/run.js";
      expect(entry.mode).toBe(executable ? 0o755 : 0o644);
    }
    expect(listed.find((entry) => entry.path.includes("naïve"))?.path).toBe("package/docs/ünïcödé/naïve.md");
  });

  it("writes no times into pax headers and none into the gzip header", async () => {
    const tgz = await packTarball(entries);
    const tar = gunzipSync(tgz);
    expect(tar.includes("path=package/docs/")).toBe(true);
    expect(tar.includes("time=")).toBe(false);
    expect(tgz[3]).toBe(0); // no file name, comment or extra field
    expect(tgz.readUInt32LE(4)).toBe(0);
    expect(tgz[9]).toBe(255);
  });

  it("writes an NFD path NFC-normalised, and string data as UTF-8", async () => {
    const inspected = await inspectTarball(await packTarball([{ path: "cafe\u0301.txt", data: "é" }]));
    expect(inspected.files).toEqual([{ path: "caf\u00e9.txt", mode: 0o644, data: Buffer.from("é") }]);
  });

  it.each([
    ["TARBALL_ERR_PATH", ["../x"]],
    ["TARBALL_ERR_PATH", ["/etc/passwd"]],
    ["TARBALL_ERR_PATH", ["C:x"]],
    ["TARBALL_ERR_PATH", ["lib\\x.js"]],
    ["TARBALL_ERR_PATH", ["a\0b"]],
    ["TARBALL_ERR_PATH", ["lib/"]],
    ["TARBALL_ERR_PATH", [""]],
    ["TARBALL_ERR_DUPLICATE", ["a.js", "a.js"]],
    ["TARBALL_ERR_COLLISION", ["caf\u00e9.js", "cafe\u0301.js"]],
    ["TARBALL_ERR_COLLISION", ["README.md", "readme.md"]],
    ["TARBALL_ERR_COLLISION", ["lib", "lib/a.js"]],
    ["TARBALL_ERR_NAME_TOO_LONG", ["a".repeat(256)]],
    ["TARBALL_ERR_TOO_DEEP", [`${"d/".repeat(32)}f.js`]],
  ])("refuses what inspection refuses: %s for %j", async (code, paths) => {
    await expect(packTarball(paths.map((path) => ({ path, data: "x" })))).rejects.toMatchObject({ code });
  });

  it("refuses more entries than the registry accepts, counting the folders it adds", async () => {
    const files = Array.from({ length: 999 }, (_, i) => ({ path: `lib/f${i}.js`, data: "" }));
    await expect(packTarball(files)).rejects.toMatchObject({ code: "TARBALL_ERR_TOO_MANY_ENTRIES" });
    expect((await inspectTarball(await packTarball(files.slice(1)))).files).toHaveLength(998);
  });

  it("refuses a package the registry would refuse for its size", async () => {
    await expect(
      packTarball([{ path: "zeros.bin", data: Buffer.alloc(4 * 1024 * 1024) }]),
    ).rejects.toMatchObject({
      code: "TARBALL_ERR_RATIO",
    });
  });
});
