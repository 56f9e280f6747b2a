import { openBlobStoreFromUrl, parseBlobsUrl } from "../../../registry/blobs/blob-url.js";
import { BenchError } from "../errors.js";
import { mapLimit } from "../map-limit.js";
import type { PackedVersion } from "../packed-corpus.js";
import { s3Env } from "./s3-server.js";

/** PutObjects in flight: s3rver writes each to disk, and more at once only queue there. */
const putConcurrency = 16;

/**
 * Puts every seeded tarball into the bucket through the registry's own S3 blob store, under the
 * key a publish would use: the PostgreSQL + S3 columns then need no second import (their database
 * is a copy of the seeded one, whose versions name these tarballs).
 */
export async function seedBucket(
  blobsUrl: string,
  corpus: readonly PackedVersion[][],
  progress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const location = parseBlobsUrl(blobsUrl);
  if (location.kind !== "s3") throw new Error(`not an S3 blobs URL: ${blobsUrl}`);
  const store = await openBlobStoreFromUrl({
    ...location,
    credentials: { accessKeyId: s3Env.AWS_ACCESS_KEY_ID ?? "", secretAccessKey: s3Env.AWS_SECRET_ACCESS_KEY ?? "" },
  });
  const versions = corpus.flat();
  let done = 0;
  try {
    await mapLimit(
      versions,
      putConcurrency,
      async (v) => {
        await store.put(v.integrity, v.tarball);
        done++;
        if (done % 10_000 === 0 || done === versions.length) progress(done, versions.length);
      },
      signal,
    );
  } catch (error) {
    throw new BenchError("BENCH_ERR_SEED", `seeding the S3 bucket failed: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    store.close?.();
  }
}
