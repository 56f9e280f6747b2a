import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inspectTarball } from "../../../package/tarball/inspect.js";
import { rawHeader } from "../../helpers/raw-tar.js";

const mib = 1024 * 1024;
const gib = 1024 * mib;

/**
 * A .tgz of one entry of `size` zero bytes. Built from gzip members (a gzip file may be several,
 * read as one stream) of one compressed MiB each, so the test holds one MiB of zeros however large
 * the bomb is.
 */
function zeroBomb(size: number): Buffer {
  const member = gzipSync(Buffer.alloc(mib), { level: 9 });
  const members = Array.from({ length: Math.floor(size / mib) }, () => member);
  const rest = size % mib;
  const padding = (512 - (size % 512)) % 512;
  const end = gzipSync(Buffer.alloc(rest + padding + 1024));
  return Buffer.concat([gzipSync(rawHeader({ name: "package/zeros.bin", size })), ...members, end]);
}

describe("decompression bombs", () => {
  it("1 GiB of zeros is refused quickly, after at most the cap in memory", async () => {
    const bomb = zeroBomb(gib);
    expect(bomb.length).toBeLessThan(2 * mib);
    const rssBefore = process.memoryUsage.rss();
    const started = performance.now();

    await expect(inspectTarball(bomb)).rejects.toMatchObject({ code: "TARBALL_ERR_TOO_LARGE" });

    expect(performance.now() - started).toBeLessThan(2000);
    // maxRSS is the process's peak so far, in KiB: the growth bound covers the whole inspection.
    const peakGrowth = process.resourceUsage().maxRSS * 1024 - rssBefore;
    expect(peakGrowth).toBeLessThan(128 * mib);
  });

  it("a small tarball that unpacks to over 100 times its size is refused by the ratio cap", async () => {
    const bomb = zeroBomb(8 * mib);
    expect(100 * bomb.length).toBeLessThan(mib);
    await expect(inspectTarball(bomb)).rejects.toMatchObject({
      code: "TARBALL_ERR_RATIO",
      message: expect.stringContaining("more than 100 times its compressed size"),
    });
  });

  it("the ratio is not held against an archive under 1 MiB unpacked", async () => {
    const inspected = await inspectTarball(zeroBomb(512 * 1024));
    expect(inspected.unpackedBytes).toBe(512 * 1024);
  });

  it("a gzip over 5 MiB is refused before any of it is decompressed", async () => {
    const noise = randomBytes(5 * mib + 1);
    await expect(inspectTarball(noise)).rejects.toMatchObject({ code: "TARBALL_ERR_GZIP_TOO_LARGE" });
  });

  it("limits passed by the caller replace the defaults", async () => {
    const tgz = zeroBomb(64 * 1024);
    await expect(inspectTarball(tgz, { maxGzipBytes: 100 })).rejects.toMatchObject({
      code: "TARBALL_ERR_GZIP_TOO_LARGE",
    });
    await expect(inspectTarball(tgz, { maxUnpackedBytes: 32 * 1024 })).rejects.toMatchObject({
      code: "TARBALL_ERR_TOO_LARGE",
    });
    expect((await inspectTarball(tgz, { maxUnpackedBytes: 128 * 1024 })).unpackedBytes).toBe(64 * 1024);
  });

  it("a header claiming 1 GiB over a few bytes is refused as cut short, without allocating its size", async () => {
    const tgz = gzipSync(Buffer.concat([rawHeader({ name: "package/a", size: gib }), Buffer.alloc(1024)]));
    const started = performance.now();
    await expect(inspectTarball(tgz)).rejects.toMatchObject({ code: "TARBALL_ERR_CORRUPT" });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
