import { corruptArchive as corrupt } from "./errors.js";

export const blockSize = 512;

/** The fields of one 512-byte header block that inspection uses; owner, group and times are ignored. */
export interface UstarHeader {
  /** Name bytes up to the last non-NUL byte, so a NUL inside the name stays visible. */
  name: Buffer;
  /** POSIX ustar's path prefix (empty in GNU archives, which use those bytes for other things). */
  prefix: Buffer;
  linkname: Buffer;
  /** The 12 permission and special bits. */
  mode: number;
  size: number;
  /** One character; the old "regular file" NUL byte reads as "0". */
  typeflag: string;
}

const posixMagic = Buffer.from("ustar\u000000", "latin1");
const gnuMagic = Buffer.from("ustar  \u0000", "latin1");

export function isZeroBlock(block: Buffer): boolean {
  for (const byte of block) if (byte !== 0) return false;
  return true;
}

export function decodeUstarHeader(block: Buffer): UstarHeader {
  const magic = block.subarray(257, 265);
  const posix = magic.equals(posixMagic);
  if (!posix && !magic.equals(gnuMagic)) throw corrupt("a header block without the ustar magic");
  if (!checksumMatches(block)) throw corrupt("a header block with a wrong checksum");
  return {
    name: withoutTrailingNuls(block.subarray(0, 100)),
    prefix: posix ? untilNul(block.subarray(345, 500)) : Buffer.alloc(0),
    linkname: withoutTrailingNuls(block.subarray(157, 257)),
    mode: octalField(block.subarray(100, 108), "mode"),
    size: octalField(block.subarray(124, 136), "size"),
    typeflag: block[156] === 0 ? "0" : String.fromCharCode(block[156] as number),
  };
}

/** The checksum counts its own 8 bytes as spaces; old writers summed signed bytes, so both sums pass. */
function checksumMatches(block: Buffer): boolean {
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < blockSize; i++) {
    const byte = i >= 148 && i < 156 ? 0x20 : (block[i] as number);
    unsigned += byte;
    signed += byte > 127 ? byte - 256 : byte;
  }
  const stored = octalField(block.subarray(148, 156), "checksum");
  return stored === unsigned || stored === signed;
}

/**
 * Octal digits, padded with leading spaces or zeros, ended by a space or NUL. Base-256 is refused:
 * writers use it only for sizes over 8 GiB, far beyond any cap.
 */
function octalField(field: Buffer, what: string): number {
  const text = field
    .toString("latin1")
    .replace(/[\0 ]+$/, "")
    .trimStart();
  if (!/^[0-7]*$/.test(text)) throw corrupt(`a ${what} field that is not an octal number`);
  return text === "" ? 0 : Number.parseInt(text, 8);
}

export function withoutTrailingNuls(field: Buffer): Buffer {
  let end = field.length;
  while (end > 0 && field[end - 1] === 0) end--;
  return field.subarray(0, end);
}

function untilNul(field: Buffer): Buffer {
  const nul = field.indexOf(0);
  return nul === -1 ? field : field.subarray(0, nul);
}
