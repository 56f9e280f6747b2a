import { closeSync, fstatSync, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HookResult } from "./protocol.js";

/**
 * How far each batch got, written by the sandbox process and read by the supervisor only when the
 * process died or a hook is overdue, so a batch costs one IPC message however many hooks it has.
 * Before the sandbox process starts the next hook of a batch, it writes the answer it just got into
 * the batch's slot of this file: the answers are then known, and so is the hook that was running
 * (the first without an answer) and when it started.
 *
 * It is a regular file, unlinked as soon as it is open, shared by descriptor: writes are pwrite(2)
 * calls at fixed offsets, so it never grows past the slots in use and nobody has to drain it.
 * Slot s is the `slotBytes` bytes from s * slotBytes. In a slot, records follow each other from
 * offset 0, each a little-endian u32 length and that many bytes of JSON, and each write also puts
 * a zero length after its record: a reader walks the records of the current batch and stops there,
 * never at bytes an earlier batch (or hook output inside an earlier record) left behind.
 */
export const slotBytes = 64 * 1024;

export interface ProgressRecord {
  /** The batch (the run message's `r`). */
  r: number;
  /** Which answer of the batch this is. */
  index: number;
  /** Date.now() when it was written: when the batch's next hook started. */
  at: number;
  result: HookResult;
}

/** The supervisor's side: a new file for a new sandbox process; undefined if none can be made. */
export function createProgressFile(): number | undefined {
  const path = join(tmpdir(), `hookyard-sandbox-${process.pid}-${process.hrtime.bigint()}.progress`);
  let fd: number | undefined;
  try {
    // wx: never follow a link someone else left at that name in a shared temp directory.
    fd = openSync(path, "wx+", 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    // Without it every answer but a batch's last travels in a message of its own: slower, as sure.
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/** The records batch r wrote in its slot, from answer `from` on, up to the first that is not the next. */
export function readProgress(fd: number, slot: number, r: number, from: number): ProgressRecord[] {
  const bytes = Buffer.alloc(slotBytes);
  let length: number;
  try {
    length = readSync(fd, bytes, 0, slotBytes, slot * slotBytes);
  } catch {
    return [];
  }
  const records: ProgressRecord[] = [];
  let offset = 0;
  while (offset + 4 <= length) {
    const size = bytes.readUInt32LE(offset);
    if (size === 0 || offset + 4 + size > length) break;
    const record = parseRecord(bytes.toString("utf8", offset + 4, offset + 4 + size));
    if (!record || record.r !== r || record.index !== from + records.length) break;
    records.push(record);
    offset += 4 + size;
  }
  return records;
}

function parseRecord(text: string): ProgressRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = value as Partial<ProgressRecord> | null;
  if (typeof record !== "object" || record === null) return undefined;
  const { r, index, at, result } = record;
  if (typeof r !== "number" || typeof index !== "number" || typeof at !== "number") return undefined;
  if (typeof result !== "object" || result === null) return undefined;
  return { r, index, at, result };
}

/** The sandbox process's side. */
export class ProgressWriter {
  private constructor(private readonly fd: number) {}

  /** The writer for the descriptor the supervisor passed, if it is one. */
  static open(fd: number | undefined): ProgressWriter | undefined {
    if (fd === undefined) return undefined;
    try {
      return fstatSync(fd).isFile() ? new ProgressWriter(fd) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Writes a record at `offset` in its batch's slot; the offset of the next record, or undefined
   * when it did not fit or could not be written (the caller then sends its answers by message).
   */
  write(slot: number, offset: number, record: ProgressRecord): number | undefined {
    const { r, index, at, result } = record;
    // The same JSON as JSON.stringify(record) (its numbers are integers), in half the time.
    const json = `{"r":${r},"index":${index},"at":${at},"result":${JSON.stringify(result)}}`;
    const size = Buffer.byteLength(json);
    if (offset + size + 8 > slotBytes) return undefined;
    const framed = Buffer.allocUnsafe(size + 8);
    framed.writeUInt32LE(size, 0);
    framed.write(json, 4);
    framed.writeUInt32LE(0, size + 4);
    try {
      if (writeSync(this.fd, framed, 0, framed.length, slot * slotBytes + offset) !== framed.length) {
        return undefined;
      }
    } catch {
      return undefined;
    }
    return offset + size + 4;
  }
}
