import { computeIntegrity } from "../../package/integrity.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { RegistryError } from "../errors.js";

export interface BlobCopyCount {
  total: number;
  /** Written to the target by this run. */
  copied: number;
  /** Already in the target with the right bytes (a resumed run, or blobs migrated in place). */
  present: number;
}

/** Blobs in flight at once: reading, hashing and the target's fsync overlap. */
const parallel = 8;

/**
 * Copies every blob a version names, trusting no byte: each is read from the source and hashed
 * against its integrity (a mismatch stops everything with REG_ERR_MIGRATE_BLOB_CORRUPT naming the
 * versions), written to the target, read back and hashed again. A blob the target already holds
 * whole is left as it is. `named`: integrity → the `name@version`s that name it.
 */
export async function copyBlobs(
  source: BlobStore,
  target: BlobStore,
  named: ReadonlyMap<string, readonly string[]>,
  onProgress: (done: number, total: number) => void,
): Promise<BlobCopyCount> {
  const queue = [...named.keys()];
  const count: BlobCopyCount = { total: queue.length, copied: 0, present: 0 };
  let failed = false;
  const worker = async () => {
    while (!failed) {
      const integrity = queue.shift();
      if (integrity === undefined) return;
      const versions = named.get(integrity) ?? [];
      try {
        if (await holds(target, integrity)) count.present++;
        else {
          await target.put(integrity, await readChecked(source, integrity, versions));
          if (!(await holds(target, integrity))) {
            throw new RegistryError(
              "REG_ERR_MIGRATE_VERIFY",
              `the target's blob storage did not give back the bytes of ${versions.join(", ")} just written (${integrity}): check its disk or bucket, then run the same command again`,
            );
          }
          count.copied++;
        }
      } catch (error) {
        failed = true;
        throw error;
      }
      onProgress(count.copied + count.present, count.total);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: parallel }, worker));
  const rejected = results.find((result) => result.status === "rejected");
  if (rejected) throw rejected.reason;
  return count;
}

async function holds(store: BlobStore, integrity: string): Promise<boolean> {
  const stored = await store.read(integrity);
  return stored !== undefined && computeIntegrity(stored.bytes) === integrity;
}

async function readChecked(
  source: BlobStore,
  integrity: string,
  versions: readonly string[],
): Promise<Buffer> {
  const stored = await source.read(integrity);
  if (!stored) {
    throw new RegistryError(
      "REG_ERR_MIGRATE_BLOB_MISSING",
      `the source has no tarball for ${versions.join(", ")} (${integrity}): restore the data directory's blobs/ from a backup, then run the same command again; nothing was marked migrated`,
    );
  }
  const actual = computeIntegrity(stored.bytes);
  if (actual !== integrity) {
    throw new RegistryError(
      "REG_ERR_MIGRATE_BLOB_CORRUPT",
      `the source's tarball of ${versions.join(", ")} does not match its integrity (${integrity}, the bytes hash to ${actual}): restore it from a backup, then run the same command again; nothing was marked migrated`,
    );
  }
  return stored.bytes;
}
