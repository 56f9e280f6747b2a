import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { rawEntry, rawHeader, rawTar, rawTgz } from "../../helpers/raw-tar.js";

const good = rawTar(rawEntry({ name: "package/index.js", data: "export default {};\n" }));
const refusedAsCorrupt = (tgz: Buffer) =>
  expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_CORRUPT" });

/** A header whose raw bytes at `offset` are replaced, with the checksum fixed up afterwards. */
function patchedHeader(offset: number, bytes: string): Buffer {
  const header = rawHeader({ name: "package/a.js", size: 1 });
  header.write(bytes, offset, "latin1");
  header.fill(0x20, 148, 156);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return header;
}

describe("archives that are not valid gzip or tar", () => {
  it("the control: the untouched archive is accepted", async () => {
    expect((await inspectTarball(gzipSync(good))).files).toHaveLength(1);
  });

  it("random bytes are refused", async () => {
    await refusedAsCorrupt(randomBytes(4096));
  });

  it("a truncated gzip is refused", async () => {
    const tgz = gzipSync(good);
    await refusedAsCorrupt(tgz.subarray(0, tgz.length - 20));
  });

  it("a plain tar that was never gzipped is refused", async () => {
    await refusedAsCorrupt(good);
  });

  it("gzip bytes followed by garbage are refused", async () => {
    await refusedAsCorrupt(Buffer.concat([gzipSync(good), Buffer.from("trailing garbage")]));
  });

  it("gzipped random bytes are refused", async () => {
    await refusedAsCorrupt(gzipSync(randomBytes(4096)));
  });

  it("an empty gzip is refused", async () => {
    await refusedAsCorrupt(gzipSync(Buffer.alloc(0)));
  });

  it("a header with a wrong checksum is refused", async () => {
    await refusedAsCorrupt(rawTgz(rawEntry({ name: "package/a.js", data: "x", badChecksum: true })));
  });

  it("a pre-POSIX (v7) header without the ustar magic is refused", async () => {
    await refusedAsCorrupt(rawTgz(rawEntry({ name: "package/a.js", data: "x", magic: "none" })));
  });

  it("a tar cut in the middle of an entry is refused", async () => {
    await refusedAsCorrupt(gzipSync(good.subarray(0, 600)));
  });

  it("a tar without its end-of-archive marker is refused", async () => {
    await refusedAsCorrupt(gzipSync(good.subarray(0, 1024)));
  });

  it("an entry hidden after the end-of-archive marker is refused", async () => {
    await refusedAsCorrupt(
      gzipSync(Buffer.concat([good, rawEntry({ name: "package/hidden.js", data: "x" })])),
    );
  });

  it("zero padding after the end marker (as GNU tar writes) is fine", async () => {
    expect((await inspectTarball(gzipSync(Buffer.concat([good, Buffer.alloc(8192)])))).files).toHaveLength(1);
  });

  it("a folder with a body is refused: readers disagree on whether to skip it", async () => {
    const body = rawEntry({ name: "package/evil.js", data: "x" });
    await refusedAsCorrupt(rawTgz(rawEntry({ name: "package/lib/", type: "5", data: body })));
  });

  it.each([
    ["a size in base-256", 124, "\x80\0\0\0\0\0\0\0\0\0\0\x01"],
    ["a size that is not octal", 124, "00000000009\0"],
    ["a mode that is not octal", 100, "0x644\0\0\0"],
  ])("%s is refused", async (_, offset, bytes) => {
    await refusedAsCorrupt(gzipSync(rawTar(patchedHeader(offset, bytes), Buffer.alloc(512))));
  });

  it("the control: a patched header with valid fields is accepted", async () => {
    const inspected = await inspectTarball(
      gzipSync(rawTar(patchedHeader(124, "   0000001 \0"), Buffer.from("x".padEnd(512, "\0")))),
    );
    expect(inspected.files.map((file) => file.data.toString())).toEqual(["x"]);
  });
});
