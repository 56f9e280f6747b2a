import type { DownloadCount, RegistryStore } from "./store.js";

/**
 * Counts tarball downloads in memory and writes them in one transaction per interval, so serving
 * a tarball costs no disk write. A crash loses at most one interval of counts; close() writes the
 * rest.
 */
export class DownloadCounter {
  private pending = new Map<string, DownloadCount>();
  private readonly timer: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: RegistryStore,
    private readonly now: () => Date,
    onError: (error: unknown) => void,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush().catch(onError), intervalMs);
    this.timer.unref();
  }

  record(versionId: number): void {
    const day = this.now().toISOString().slice(0, 10);
    const key = `${versionId}:${day}`;
    const entry = this.pending.get(key);
    if (entry) entry.count++;
    else this.pending.set(key, { versionId, day, count: 1 });
  }

  /** Writes what was counted so far. */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const write = this.writing.then(() => this.store.addDownloads(batch));
    // Writes stay in order; one that failed (reported to the caller) does not stop the next.
    this.writing = write.catch(() => undefined);
    await write;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
