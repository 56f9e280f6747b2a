/**
 * Tarball bytes, addressed by their SRI sha512 integrity. The filesystem store is the embedded
 * default; s3-blob-store.ts keeps them in an S3-compatible bucket (DESIGN §9).
 */
export interface BlobStore {
  /**
   * Stores bytes under their integrity (the caller computed it), durably: after `put` resolves the
   * bytes survive a crash. Putting the same blob twice is harmless.
   */
  put(integrity: string, bytes: Uint8Array, options?: { durable?: boolean }): Promise<void>;
  /** The stored bytes as stored, unchecked, with their revision; undefined when there are none. */
  read(integrity: string): Promise<StoredBlob | undefined>;
  /**
   * The stored bytes' current revision without reading them (undefined when there are none):
   * while it stays the same, bytes read before are still what is stored.
   */
  revision(integrity: string): Promise<string | undefined>;
  delete(integrity: string): Promise<void>;
  /** Every stored integrity (for the start-up sweep of orphans). */
  list(): Promise<string[]>;
  /**
   * Removes what a killed process left half-written (a file store's temp files); at start, only
   * while no other process can be writing. A store whose puts are atomic (S3) has none.
   */
  clearPartial?(): Promise<void>;
  /**
   * For a store that several registries could be pointed at (a bucket): marks it as the
   * registry `registry`'s, or returns the registry that already holds it.
   */
  claim?(registry: string): Promise<string | undefined>;
  /** Releases connections, when the store holds any. */
  close?(): void;
}

export interface StoredBlob {
  bytes: Buffer;
  /** Changes whenever the stored object may have changed (for a file: device, inode, size, mtime, ctime). */
  revision: string;
}
