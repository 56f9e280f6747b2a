import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * A temp name next to `file`, so the final rename stays on one file system (and is atomic). This
 * process's id and a random part make it its own, also beside one a killed process left with a
 * reused id; a name, not a secret, so not node:crypto (whose loading costs an event ~7 ms).
 */
export function tempNameFor(file: string): string {
  const unique = Math.floor(Math.random() * 2 ** 32)
    .toString(16)
    .padStart(8, "0");
  return join(dirname(file), `.${basename(file)}.${process.pid}.${unique}.tmp`);
}

/**
 * Writes `file` whole or not at all: a temp file beside it is written, flushed to disk and renamed
 * over it. A crash or Ctrl-C at any point leaves either the old file or the new one, never half.
 */
export async function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644): Promise<void> {
  const temp = tempNameFor(file);
  const handle = await open(temp, "wx", mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
