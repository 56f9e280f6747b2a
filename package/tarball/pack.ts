import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { Header, Pax } from "tar";
import { checkRelativePath } from "./entry-path.js";
import { TarballError } from "./errors.js";
import { inspectTarball } from "./inspect.js";
import { defaultTarballLimits } from "./limits.js";
import { PathIndex } from "./path-index.js";
import { blockSize } from "./ustar-header.js";

export interface PackEntry {
  /** Relative to the package root, forward slashes. */
  path: string;
  data: Buffer | string;
  executable?: boolean;
}

/** npm's fixed time for every entry, so a tarball's bytes depend on its contents only. */
const fixedMtime = new Date("1985-10-26T08:15:00.000Z");
/** The gzip header's OS byte differs by platform; 255 ("unknown") is the same everywhere. */
const gzipOsOffset = 9;
const gzipOsUnknown = 255;

const gzipAsync = promisify(gzip);

interface TarRecord {
  path: string;
  data?: Buffer;
  mode: number;
}

/**
 * A reproducible .tgz of `entries` under package/: entries sorted by path, every parent folder
 * listed, mtime, owner and modes fixed, no times in pax headers, gzip without name or time. The
 * same entries give the same bytes on any machine. Refuses (TarballError) whatever the registry's
 * inspection would refuse, and checks its own output with that inspection before returning it.
 */
export async function packTarball(entries: readonly PackEntry[]): Promise<Buffer> {
  const limits = defaultTarballLimits;
  const index = new PathIndex("");
  const files: TarRecord[] = entries.map((entry) => {
    const path = checkRelativePath(entry.path, limits);
    index.claim(entry.path, "file");
    return { path, data: Buffer.from(entry.data), mode: entry.executable ? 0o755 : 0o644 };
  });
  const folders: TarRecord[] = ["", ...index.directories()].map((path) => ({ path, mode: 0o755 }));
  const records = [...folders, ...files].sort((a, b) => (a.path < b.path ? -1 : 1));
  if (records.length > limits.maxEntries) {
    throw new TarballError(
      "TARBALL_ERR_TOO_MANY_ENTRIES",
      `the package would hold ${records.length} files and folders, over the ${limits.maxEntries} the registry accepts: bundle the hook into fewer files`,
    );
  }
  const tar = Buffer.concat([...records.flatMap(tarRecord), Buffer.alloc(2 * blockSize)]);
  const gzipped = await gzipAsync(tar, { level: 9 });
  gzipped[gzipOsOffset] = gzipOsUnknown;
  await inspectTarball(gzipped);
  return gzipped;
}

function tarRecord({ path, data, mode }: TarRecord): Buffer[] {
  const name = data ? `package/${path}` : `package/${path}${path ? "/" : ""}`;
  const header = new Header({
    path: name,
    mode,
    size: data?.length ?? 0,
    mtime: fixedMtime,
    uid: 0,
    gid: 0,
    uname: "",
    gname: "",
    type: data ? "File" : "Directory",
  });
  const block = Buffer.alloc(blockSize);
  // Long or non-ASCII names do not fit ustar: a pax header carries the path (and nothing else).
  const pax = header.encode(block) ? [new Pax({ path: name }).encode()] : [];
  const body = data ? [data, Buffer.alloc((blockSize - (data.length % blockSize)) % blockSize)] : [];
  return [...pax, block, ...body];
}
