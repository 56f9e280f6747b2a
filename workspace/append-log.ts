import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * A file that only grows, one line per entry, each batch on disk (fsync) before `sync()` resolves:
 * a crash or `kill -9` leaves every synced line whole, and at most the last line half-written.
 * Lines added while a write is in flight go out together with one fsync (a group commit).
 */
export class AppendLog {
  private pending: string[] = [];
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown;

  private constructor(private readonly handle: FileHandle) {}

  /** Opens `file` for appending, making its folder; `exclusive` refuses a file that exists. */
  static async open(file: string, options: { exclusive?: boolean } = {}): Promise<AppendLog> {
    const dir = dirname(file);
    await mkdir(dir, { recursive: true });
    const log = new AppendLog(await open(file, options.exclusive ? "ax" : "a", 0o644));
    // The new file's name must survive a crash too: that is the folder's entry, synced on its own.
    await syncFolder(dir);
    return log;
  }

  /** Queues one line (without its newline); it reaches disk at the next `sync()`. */
  add(line: string): void {
    this.pending.push(`${line}\n`);
  }

  /** Resolves once every line added so far is written and fsynced; rejects if a write failed. */
  sync(): Promise<void> {
    if (this.pending.length > 0) {
      const batch = this.pending.join("");
      this.pending = [];
      this.writing = this.writing.then(async () => {
        if (this.failure !== undefined) return;
        try {
          await this.handle.appendFile(batch);
          await this.handle.datasync();
        } catch (error) {
          this.failure = error;
        }
      });
    }
    return this.writing.then(() => {
      if (this.failure !== undefined) throw this.failure;
    });
  }

  async close(): Promise<void> {
    try {
      await this.sync();
    } finally {
      await this.handle.close();
    }
  }
}

async function syncFolder(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Some file systems (and Windows) cannot open or sync a folder; the file's own fsyncs still hold.
  } finally {
    await handle?.close();
  }
}
