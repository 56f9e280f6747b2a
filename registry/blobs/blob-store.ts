/**
 * Tarball bytes, addressed by their SRI sha512 integrity. The filesystem store is the embedded
 * default; an S3-compatible one can implement the same interface (DESIGN §9).
 */
export interface BlobStore {
  /**
   * Stores bytes under their integrity (the caller computed it), durably: after `put` resolves the
   * bytes survive a crash. Putting the same blob twice is harmless.
   */
  put(integrity: string, bytes: Uint8Array, options?: { durable?: boolean }): Promise<void>;
  /** The stored bytes, or undefined when there are none. Bytes are returned as stored, unchecked. */
  get(integrity: string): Promise<Buffer | undefined>;
  delete(integrity: string): Promise<void>;
  /** Every stored integrity (for the start-up sweep of orphans). */
  list(): Promise<string[]>;
}
