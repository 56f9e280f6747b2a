import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { integrityFromHex, integrityHex } from "../../package/integrity.js";
import type { BlobStore, StoredBlob } from "./blob-store.js";

// Reads use the callback API: for files of a few KB, fs/promises' FileHandle bookkeeping makes a
// read cost about a third more.
const openFd = promisify(fs.open);
const fstat = promisify(fs.fstat);
const readFd = promisify(fs.read);
const closeFd = promisify(fs.close);

/**
 * Blobs as files `<root>/sha512/<first two hex digits>/<hex>`. A blob is written to a temp file
 * in `tmpDir` (same file system), fsynced, then renamed into place, so a reader never sees half a
 * blob and a crash leaves at most a temp file (cleared at start) or a whole orphan (swept at start).
 */
export class FsBlobStore implements BlobStore {
  /** Fan-out folders known to exist, so a put costs no mkdir after the first in its folder. */
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly root: string,
    private readonly tmpDir: string,
  ) {}

  async put(integrity: string, bytes: Uint8Array, options: { durable?: boolean } = {}): Promise<void> {
    const durable = options.durable ?? true;
    const file = this.fileOf(integrity);
    const dir = join(file, "..");
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    const temp = join(this.tmpDir, `${randomBytes(8).toString("hex")}.blob`);
    try {
      const handle = await open(temp, "wx", 0o644);
      try {
        await handle.writeFile(bytes);
        if (durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    if (durable) await syncDirectory(dir);
  }

  async read(integrity: string): Promise<StoredBlob | undefined> {
    let fd: number;
    try {
      fd = await openFd(this.fileOf(integrity), "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      // Stat before reading: a change made during the read then shows as a new revision.
      const stats = await fstat(fd, { bigint: true });
      // Memory of its own rather than a slice of Node's shared pool: callers may keep it.
      const bytes = Buffer.allocUnsafeSlow(Number(stats.size));
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await readFd(fd, bytes, filled, bytes.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: bytes.subarray(0, filled), revision: revisionOf(stats) };
    } finally {
      await closeFd(fd);
    }
  }

  async revision(integrity: string): Promise<string | undefined> {
    // Asked on every download of a kept blob. A stat of a local file is a few µs in the kernel,
    // while handing it to libuv's thread pool costs about 40 µs of CPU: blocking is cheaper here.
    const stats = fs.statSync(this.fileOf(integrity), { bigint: true, throwIfNoEntry: false });
    return stats && revisionOf(stats);
  }

  async delete(integrity: string): Promise<void> {
    await rm(this.fileOf(integrity), { force: true });
  }

  async list(): Promise<string[]> {
    const base = join(this.root, "sha512");
    const found: string[] = [];
    let fanout: string[];
    try {
      fanout = await readdir(base);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    for (const prefix of fanout) {
      for (const name of await readdir(join(base, prefix))) {
        const integrity = integrityFromHex(name);
        if (integrity && name.startsWith(prefix)) found.push(integrity);
      }
    }
    return found;
  }

  async clearPartial(): Promise<void> {
    const leftovers = await readdir(this.tmpDir).catch(() => []);
    await Promise.all(leftovers.map((name) => rm(join(this.tmpDir, name), { recursive: true, force: true })));
  }

  /** Where a blob lives; only well-formed sha512 SRI strings name a file. */
  fileOf(integrity: string): string {
    const hex = integrityHex(integrity);
    if (!hex) throw new Error(`not a sha512 integrity: ${integrity}`);
    return join(this.root, "sha512", hex.slice(0, 2), hex);
  }
}

/**
 * Which file, and which state of it: writing it in place moves mtime and ctime (ctime cannot be
 * set back from user space), replacing it changes the inode.
 */
function revisionOf(stats: fs.BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The rename is only durable once the directory entry is on disk too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
