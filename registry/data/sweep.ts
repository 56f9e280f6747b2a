import type { BlobStore } from "../blobs/blob-store.js";
import type { RegistryStore } from "../store.js";

/**
 * Removes blobs that no version row names: what a publish left when the process died between
 * storing the blob and committing the row. Runs at start, before the registry takes requests.
 */
export async function sweepOrphanBlobs(store: RegistryStore, blobs: BlobStore): Promise<string[]> {
  const named = await store.storedIntegrities();
  const orphans = (await blobs.list()).filter((integrity) => !named.has(integrity));
  for (const integrity of orphans) await blobs.delete(integrity);
  return orphans;
}
