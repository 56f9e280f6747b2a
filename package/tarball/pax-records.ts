import { corruptArchive } from "./errors.js";

/**
 * The records of a pax extended header body, "<length> <key>=<value>\n" each, where length counts
 * the whole record. Strict where readers differ: a record whose length does not land on its
 * newline, a repeated key or trailing bytes refuse the archive instead of being skipped, so no
 * extractor can read a path or size that inspection did not see. Values stay bytes: only some are
 * text, and which charset they use is for the caller to judge.
 */
export function parsePaxRecords(body: Buffer): Map<string, Buffer> {
  const records = new Map<string, Buffer>();
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const digits = space === -1 ? "" : body.toString("latin1", at, space);
    const length = /^[1-9][0-9]{0,7}$/.test(digits) ? Number(digits) : Number.NaN;
    const end = at + length;
    if (!(end <= body.length) || body[end - 1] !== 0x0a) {
      throw corruptArchive(`a pax header record at byte ${at} whose length does not match its content`);
    }
    const record = body.subarray(space + 1, end - 1);
    const equals = record.indexOf(0x3d);
    if (equals <= 0) throw corruptArchive(`a pax header record at byte ${at} without a key`);
    const key = record.toString("latin1", 0, equals);
    if (records.has(key)) throw corruptArchive(`a pax header that sets "${key}" twice`);
    records.set(key, record.subarray(equals + 1));
    at = end;
  }
  return records;
}
