import { ByteQueue } from "./byte-queue.js";
import { corruptArchive, refuseEntry, showPath, TarballError } from "./errors.js";
import { maxMetaBytes } from "./limits.js";
import { parsePaxRecords } from "./pax-records.js";
import {
  blockSize,
  decodeUstarHeader,
  isZeroBlock,
  type UstarHeader,
  withoutTrailingNuls,
} from "./ustar-header.js";

/** A file, folder or anything else the archive holds, with pax and GNU long names already applied. */
export interface TarEntry {
  /** The tar typeflag: "0" file, "5" folder, "1" hard link, "2" symlink, … */
  typeflag: string;
  path: string;
  linkpath: string;
  mode: number;
  size: number;
}

export interface TarVisitor {
  /** Called as soon as an entry's header is read, before its body: throw to refuse the archive. */
  onEntry(entry: TarEntry): void;
  onData(entry: TarEntry, data: Buffer): void;
}

/** What pax ("x") and GNU long-name ("L", "K") headers said about the next entry. */
interface PendingOverrides {
  path?: string;
  linkpath?: string;
  size?: number;
  seen: Set<string>;
}

const paxUtf8 = "ISO-IR 10646 2000 UTF-8";
const utf8 = new TextDecoder("utf-8", { fatal: true });
const padded = (size: number) => Math.ceil(size / blockSize) * blockSize;

/**
 * A strict streaming tar reader: push decompressed chunks, and each entry is handed to the visitor
 * the moment its header is complete. Where tar readers disagree (bad checksums, pax keys only some
 * honour, bytes after the end marker, names that are not UTF-8) it refuses rather than guesses,
 * so the entries it approves are the entries other readers see.
 */
export class TarReader {
  private readonly queue = new ByteQueue();
  private overrides: PendingOverrides = { seen: new Set() };
  private current: { header: UstarHeader; entry?: TarEntry; size: number } | undefined;
  private sawGlobalHeader = false;
  private ended = false;

  constructor(private readonly visitor: TarVisitor) {}

  push(chunk: Buffer): void {
    this.queue.push(chunk);
    while (!this.ended) {
      if (!this.current && !this.startRecord()) return;
      const record = this.current;
      if (!record) continue;
      const body = this.queue.take(padded(record.size));
      if (!body) return;
      this.current = undefined;
      this.finishRecord(record.header, record.entry, body.subarray(0, record.size));
    }
    for (const rest of this.queue.drain()) {
      if (!isZeroBlock(rest)) throw corruptArchive("data after the end-of-archive marker");
    }
  }

  /** Call once the input is complete: a missing end marker or a cut entry refuses the archive. */
  end(): void {
    if (!this.ended) throw corruptArchive("it ends before its end-of-archive marker; it was cut short");
  }

  /** Reads the next header block; false while fewer than 512 bytes are queued. */
  private startRecord(): boolean {
    const block = this.queue.take(blockSize);
    if (!block) return false;
    if (isZeroBlock(block)) {
      if (this.overrides.seen.size > 0) {
        throw corruptArchive("a pax or long-name header with no entry after it");
      }
      this.ended = true;
      return true;
    }
    const header = decodeUstarHeader(block);
    if (isMetaType(header.typeflag)) {
      if (header.size > maxMetaBytes) {
        throw corruptArchive(`a ${header.size}-byte pax or long-name header (at most ${maxMetaBytes})`);
      }
      this.current = { header, size: header.size };
      return true;
    }
    const entry = this.applyOverrides(header);
    this.visitor.onEntry(entry);
    this.current = { header, entry, size: entry.size };
    return true;
  }

  private finishRecord(header: UstarHeader, entry: TarEntry | undefined, body: Buffer): void {
    if (entry) this.visitor.onData(entry, body);
    else this.readMeta(header.typeflag, body);
  }

  private applyOverrides(header: UstarHeader): TarEntry {
    const { path, linkpath, size } = this.overrides;
    this.overrides = { seen: new Set() };
    const ustarPath =
      header.prefix.length > 0 ? Buffer.concat([header.prefix, Buffer.from("/"), header.name]) : header.name;
    const entry: TarEntry = {
      typeflag: header.typeflag,
      path: path ?? decodeName(ustarPath, "name"),
      linkpath: linkpath ?? decodeName(header.linkname, "link target"),
      mode: header.mode,
      size: size ?? header.size,
    };
    if (entry.typeflag === "5" && entry.size !== 0) {
      throw corruptArchive(`folder ${showPath(entry.path)} with a ${entry.size}-byte body`);
    }
    return entry;
  }

  private readMeta(typeflag: string, body: Buffer): void {
    if (typeflag === "g") {
      if (this.sawGlobalHeader) throw corruptArchive("more than one global pax header");
      this.sawGlobalHeader = true;
      checkRecords(parsePaxRecords(body), ["path", "linkpath", "size", "mode"]);
      return;
    }
    const { seen } = this.overrides;
    if (seen.has(typeflag)) throw corruptArchive(`two "${typeflag}" headers for one entry`);
    seen.add(typeflag);
    if (typeflag === "L") {
      this.override("path", decodeName(withoutTrailingNuls(body), "long name"));
    } else if (typeflag === "K") {
      this.override("linkpath", decodeName(withoutTrailingNuls(body), "long link"));
    } else {
      this.readPaxOverrides(parsePaxRecords(body));
    }
  }

  private readPaxOverrides(records: Map<string, Buffer>): void {
    checkRecords(records, ["mode"]);
    for (const [key, value] of records) {
      if (key.startsWith("GNU.sparse.")) {
        throw new TarballError(
          "TARBALL_ERR_ENTRY_TYPE",
          "the tarball holds a sparse file, which some extractors expand differently: pack it as a regular file",
        );
      }
      if (key === "path" || key === "linkpath") this.override(key, decodeName(value, `pax ${key}`));
      if (key === "size") this.override("size", paxSize(value));
    }
  }

  private override<K extends "path" | "linkpath" | "size">(key: K, value: PendingOverrides[K]): void {
    if (this.overrides[key] !== undefined) {
      throw corruptArchive(`two headers that set the ${key} of one entry`);
    }
    this.overrides[key] = value;
  }
}

function isMetaType(typeflag: string): boolean {
  return typeflag === "x" || typeflag === "g" || typeflag === "L" || typeflag === "K";
}

/**
 * Refuses the header if it sets one of `refused`: in a global header, keys that would apply to
 * every entry; anywhere, "mode", which POSIX does not define but node-tar honours (setuid bits
 * included) and GNU tar ignores. Names in another charset than UTF-8 are refused too.
 */
function checkRecords(records: Map<string, Buffer>, refused: string[]): void {
  for (const key of refused) {
    if (records.has(key)) {
      throw corruptArchive(`a pax header that sets "${key}", which readers apply differently`);
    }
  }
  const charset = records.get("hdrcharset")?.toString("latin1");
  if (charset !== undefined && charset !== paxUtf8) {
    throw new TarballError(
      "TARBALL_ERR_PATH",
      `the tarball declares its names to be ${JSON.stringify(charset)}, not UTF-8: pack it with UTF-8 file names`,
    );
  }
}

/** An empty value would mean "fall back to the ustar field", which readers handle differently. */
function paxSize(value: Buffer): number {
  const text = value.toString("latin1");
  if (!/^[0-9]{1,15}$/.test(text)) {
    throw corruptArchive(`a pax size ${JSON.stringify(text)} that is not a number`);
  }
  return Number(text);
}

function decodeName(bytes: Buffer, what: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    const shown = bytes.toString("latin1");
    throw refuseEntry(
      "TARBALL_ERR_PATH",
      shown,
      `has a ${what} that is not UTF-8: rename it with UTF-8 characters`,
    );
  }
}
