import { PassThrough } from "node:stream";
import { createGzip } from "node:zlib";
import { expect, it } from "vitest";
import { gnuLongName, paxHeader, rawEntry, rawTgz } from "../../helpers/raw-tar.js";
import { describeEachBackend, manifestFor, publish, startRegistry, storedState } from "../helpers.js";

/**
 * Each attack from the registry issue's acceptance list, built here, sent over HTTP: refused with
 * its REG_ERR_TARBALL_* code, and afterwards no row, no blob, and no file anywhere under the test's
 * temp root but the data dir as it was.
 */
const manifest = JSON.stringify(manifestFor({ name: "evil" }));
const hook = "export default {};\n";

/** A valid package's entries, then the attack's. */
function tgz(...attack: Buffer[]): Buffer {
  return rawTgz(
    rawEntry({ name: "package/", type: "5", mode: 0o755 }),
    rawEntry({ name: "package/package.json", data: manifest }),
    rawEntry({ name: "package/dist/", type: "5", mode: 0o755 }),
    rawEntry({ name: "package/dist/hook.js", data: hook }),
    ...attack,
  );
}

/** A .tgz whose one file is `zeros` bytes of zeros, compressed as a stream (the test never holds them). */
async function gzipBomb(zeros: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  const sink = new PassThrough();
  sink.on("data", (chunk: Buffer) => out.push(chunk));
  gzip.pipe(sink);
  gzip.write(rawEntry({ name: "package/package.json", data: manifest }));
  gzip.write(rawEntry({ name: "package/dist/hook.js", data: hook }).subarray(0, 512 + 512));
  const header = rawEntry({ name: "package/zeros.bin", size: zeros }).subarray(0, 512);
  gzip.write(header);
  const chunk = Buffer.alloc(1024 * 1024);
  for (let written = 0; written < zeros; written += chunk.length) {
    if (!gzip.write(chunk)) await new Promise((done) => gzip.once("drain", done));
  }
  gzip.end(Buffer.alloc(1024));
  await new Promise((done) => sink.on("end", done));
  return Buffer.concat(out);
}

const attacks: Array<[string, () => Buffer | Promise<Buffer>, string]> = [
  [
    "a symlink, then a file written through it",
    () =>
      tgz(
        rawEntry({ name: "package/link", type: "2", linkname: "/etc" }),
        rawEntry({ name: "package/link/passwd", data: "root::0:0::/:/bin/sh\n" }),
      ),
    "REG_ERR_TARBALL_ENTRY_TYPE",
  ],
  [
    "a hard link to ../x",
    () => tgz(rawEntry({ name: "package/x", type: "1", linkname: "../x" })),
    "REG_ERR_TARBALL_ENTRY_TYPE",
  ],
  ["an absolute path ////abs", () => tgz(rawEntry({ name: "////abs", data: "x" })), "REG_ERR_TARBALL_PATH"],
  [
    "a Windows drive-relative path C:../x",
    () => tgz(rawEntry({ name: "package/C:../x", data: "x" })),
    "REG_ERR_TARBALL_PATH",
  ],
  [
    "NFC and NFD spellings of one name",
    () =>
      tgz(
        rawEntry({ name: "package/caf\u00e9.js", data: "a" }),
        rawEntry({ name: "package/cafe\u0301.js", data: "b" }),
      ),
    "REG_ERR_TARBALL_COLLISION",
  ],
  [
    "two names that differ only by case",
    () =>
      tgz(rawEntry({ name: "package/Hook.js", data: "a" }), rawEntry({ name: "package/HOOK.js", data: "b" })),
    "REG_ERR_TARBALL_COLLISION",
  ],
  [
    "2,000 nested folders",
    () => {
      const entries: Buffer[] = [];
      let path = "package/";
      for (let depth = 0; depth < 2000; depth++) {
        path += "d/";
        entries.push(path.length > 99 ? paxHeader({ path }) : Buffer.alloc(0));
        entries.push(rawEntry({ name: path.length > 99 ? "package/long/" : path, type: "5", mode: 0o755 }));
      }
      return tgz(...entries);
    },
    "REG_ERR_TARBALL_TOO_DEEP",
  ],
  ["a gzip bomb (64 MiB of zeros)", () => gzipBomb(64 * 1024 * 1024), "REG_ERR_TARBALL_RATIO"],
  [
    "20,000 empty files",
    () => tgz(...Array.from({ length: 20_000 }, (_, i) => rawEntry({ name: `package/f${i}` }))),
    "REG_ERR_TARBALL_TOO_MANY_ENTRIES",
  ],
  [
    "a setuid file",
    () => tgz(rawEntry({ name: "package/run.sh", mode: 0o4755, data: "#!/bin/sh\n" })),
    "REG_ERR_TARBALL_MODE",
  ],
  [
    "a duplicate entry replacing a file",
    () => tgz(rawEntry({ name: "package/dist/hook.js", data: "globalThis.pwned = true;\n" })),
    "REG_ERR_TARBALL_DUPLICATE",
  ],
  [
    "a long GNU name that climbs out with ..",
    () =>
      tgz(
        gnuLongName(`package/${"a/".repeat(60)}${"../".repeat(70)}x`),
        rawEntry({ name: "package/x", data: "x" }),
      ),
    "REG_ERR_TARBALL_PATH",
  ],
  ["bytes that are not gzip", () => Buffer.from("not a tarball at all"), "REG_ERR_TARBALL_CORRUPT"],
  [
    "an entry outside package/",
    () => tgz(rawEntry({ name: "other/evil.js", data: "x" })),
    "REG_ERR_TARBALL_LAYOUT",
  ],
];

describeEachBackend("malicious tarballs over HTTP", () => {
  it.each(attacks)("%s is refused, leaving nothing behind", async (_attack, build, code) => {
    const reg = await startRegistry();
    const tarball = await build();
    const before = await storedState(reg);
    const answer = await publish(reg, reg.admin, tarball, "evil");
    expect(answer.json.error.code).toBe(code);
    expect([400, 413]).toContain(answer.status);
    expect(await storedState(reg)).toEqual(before);
    expect((await reg.call("/v1/packages/evil")).status).toBe(404);
  });

  it.each([
    ["a file with mode 0777", "package/dist/run.sh", "0", 0o777, "777"],
    ["a file writable by others only (0646)", "package/notes.txt", "0", 0o646, "646"],
    ["a folder with mode 0757", "package/data/", "5", 0o757, "757"],
  ])(
    "%s (world-writable) is refused at publish, naming the entry and the fix",
    async (_case, name, type, mode, shown) => {
      const reg = await startRegistry();
      const before = await storedState(reg);
      const answer = await publish(
        reg,
        reg.admin,
        tgz(rawEntry({ name, type, mode, data: type === "0" ? "x" : "" })),
        "evil",
      );
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe("REG_ERR_TARBALL_MODE");
      expect(answer.json.error.message).toContain(
        `entry "${name}" is writable by every user (mode ${shown})`,
      );
      expect(answer.json.error.message).toContain("chmod o-w");
      expect(await storedState(reg)).toEqual(before);
      expect((await reg.call("/v1/packages/evil")).status).toBe(404);
    },
  );

  it("the same package without the attack is accepted (the attacks are what is refused)", async () => {
    const reg = await startRegistry();
    const answer = await publish(reg, reg.admin, tgz(), "evil");
    expect(answer.status).toBe(201);
  });
});
