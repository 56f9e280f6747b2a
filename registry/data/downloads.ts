import type { DownloadCount, RegistryStore } from "../store.js";

/**
 * Counts tarball downloads in memory and writes them in one transaction per interval, so serving
 * a tarball costs no disk write. A failed write keeps its counts for the next one; close() writes
 * the rest, so a graceful stop loses nothing and a crash at most one interval.
 */
export class DownloadCounter {
  private pending = new Map<string, DownloadCount>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RegistryStore,
    private readonly now: () => Date,
    onError: (error: unknown) => void,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush().catch(onError), intervalMs);
    this.timer.unref();
  }

  record(versionId: number): void {
    this.add(versionId, this.now().toISOString().slice(0, 10), 1);
  }

  /** Writes what was counted so far. */
  async flush(): Promise<void> {
    const batch = this.pending;
    if (batch.size === 0) return this.writing;
    this.pending = new Map();
    const write = this.writing.then(() => this.store.addDownloads([...batch.values()]));
    // Writes stay in order; a failed one (reported to the caller) is counted again next time.
    this.writing = write.catch(() => {
      for (const { versionId, day, count } of batch.values()) this.add(versionId, day, count);
    });
    await write;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private add(versionId: number, day: string, count: number): void {
    const key = `${versionId}:${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.count += count;
    else this.pending.set(key, { versionId, day, count });
  }
}
