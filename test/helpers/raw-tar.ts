import { gzipSync } from "node:zlib";

/**
 * A tiny tar writer for tests that need archives no well-behaved tool would write: links, devices,
 * "../" names, NUL bytes, bad checksums. Every field is written as given; nothing is checked.
 */
export interface RawHeader {
  /** The 100-byte name field; a Buffer is written byte for byte. */
  name: string | Buffer;
  /** Tar typeflag: "0" file (default), "5" folder, "1" hard link, "2" symlink, "3"/"4" devices, "6" FIFO, … */
  type?: string;
  mode?: number;
  /** The size field; defaults to the data's length. */
  size?: number;
  linkname?: string;
  prefix?: string;
  magic?: "posix" | "gnu" | "none";
  /** Store a checksum one off from the right one. */
  badChecksum?: boolean;
}

export interface RawEntry extends RawHeader {
  data?: Buffer | string;
}

const block = 512;

function writeOctal(buf: Buffer, offset: number, width: number, value: number): void {
  buf.write(`${value.toString(8).padStart(width - 1, "0")}\0`, offset, width, "latin1");
}

/** One 512-byte header block. */
export function rawHeader(fields: RawHeader & { size: number }): Buffer {
  const buf = Buffer.alloc(block);
  (typeof fields.name === "string" ? Buffer.from(fields.name) : fields.name).copy(buf, 0, 0, 100);
  writeOctal(buf, 100, 8, fields.mode ?? 0o644);
  writeOctal(buf, 108, 8, 0);
  writeOctal(buf, 116, 8, 0);
  writeOctal(buf, 124, 12, fields.size);
  writeOctal(buf, 136, 12, 499162500);
  buf.write(fields.type ?? "0", 156, 1, "latin1");
  if (fields.linkname) buf.write(fields.linkname, 157, 100);
  const magic = fields.magic ?? "posix";
  if (magic === "posix") buf.write("ustar\u000000", 257, 8, "latin1");
  if (magic === "gnu") buf.write("ustar  \u0000", 257, 8, "latin1");
  if (fields.prefix) buf.write(fields.prefix, 345, 155);
  buf.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of buf) sum += byte;
  writeOctal(buf, 148, 7, sum + (fields.badChecksum ? 1 : 0));
  buf[155] = 0x20;
  return buf;
}

/** A header and its body, padded to whole blocks. */
export function rawEntry(entry: RawEntry): Buffer {
  const data = typeof entry.data === "string" ? Buffer.from(entry.data) : (entry.data ?? Buffer.alloc(0));
  return Buffer.concat([rawHeader({ ...entry, size: entry.size ?? data.length }), padToBlock(data)]);
}

/** A pax extended header ("x", or "g" for global) holding `records` exactly as given. */
export function paxHeader(records: Record<string, string | Buffer>, type: "x" | "g" = "x"): Buffer {
  const body = Buffer.concat(Object.entries(records).map(([key, value]) => paxRecord(key, value)));
  return rawEntry({ name: "PaxHeader", type, data: body });
}

/** "<length> key=value\n", where length counts itself. */
export function paxRecord(key: string, value: string | Buffer): Buffer {
  const rest = Buffer.concat([Buffer.from(` ${key}=`), Buffer.from(value), Buffer.from("\n")]);
  let length = rest.length + 1;
  while (String(length).length + rest.length !== length) length++;
  return Buffer.concat([Buffer.from(String(length)), rest]);
}

/** A GNU long-name ("L") or long-link ("K") header for the next entry. */
export function gnuLongName(name: string | Buffer, type: "L" | "K" = "L"): Buffer {
  return rawEntry({ name: "././@LongLink", type, data: Buffer.concat([Buffer.from(name), Buffer.alloc(1)]) });
}

/** The parts one after the other, then the two zero blocks that end an archive. */
export function rawTar(...parts: Buffer[]): Buffer {
  return Buffer.concat([...parts, Buffer.alloc(2 * block)]);
}

/** A .tgz of `rawTar(...parts)`. */
export function rawTgz(...parts: Buffer[]): Buffer {
  return gzipSync(rawTar(...parts));
}

export function padToBlock(data: Buffer): Buffer {
  const padding = (block - (data.length % block)) % block;
  return padding === 0 ? data : Buffer.concat([data, Buffer.alloc(padding)]);
}
