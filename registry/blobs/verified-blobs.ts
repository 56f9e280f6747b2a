import { computeIntegrity } from "../../package/integrity.js";
import { SizedLru } from "../data/sized-lru.js";
import type { BlobStore, StoredBlob } from "./blob-store.js";

/** What a download finds: bytes that match the integrity, or why there are none. */
export type BlobCheck =
  | { state: "ok"; bytes: Buffer }
  | { state: "missing" }
  | { state: "corrupt"; actual: string };

/**
 * Tarball bytes that match their integrity, hashed once per stored revision. Verified bytes are
 * kept (within a byte budget) with the revision they were read at; a download of a kept blob
 * only asks the store for the current revision, and any change to the stored object (a write in
 * place, a replaced file) reads and hashes it again. So bytes that do not match are never served,
 * and tampering is reported on the next download; only a change that leaves a file's metadata
 * alone (bit rot under an unchanged inode) waits until the blob is no longer kept.
 */
export class VerifiedBlobs {
  private readonly kept: SizedLru<string, StoredBlob>;
  /** Downloads of one blob that is not kept share one read. */
  private readonly reading = new Map<string, Promise<BlobCheck>>();

  constructor(
    private readonly blobs: BlobStore,
    budgetBytes: number,
  ) {
    this.kept = new SizedLru(budgetBytes, (blob) => blob.bytes.length);
  }

  async get(integrity: string): Promise<BlobCheck> {
    const kept = this.kept.get(integrity);
    if (kept) {
      if ((await this.blobs.revision(integrity)) === kept.revision) return { state: "ok", bytes: kept.bytes };
      this.kept.delete(integrity);
    }
    let reading = this.reading.get(integrity);
    if (!reading) {
      reading = this.readAndCheck(integrity).finally(() => this.reading.delete(integrity));
      this.reading.set(integrity, reading);
    }
    return reading;
  }

  private async readAndCheck(integrity: string): Promise<BlobCheck> {
    const stored = await this.blobs.read(integrity);
    if (!stored) return { state: "missing" };
    const actual = computeIntegrity(stored.bytes);
    if (actual !== integrity) return { state: "corrupt", actual };
    this.kept.set(integrity, stored);
    return { state: "ok", bytes: stored.bytes };
  }
}
