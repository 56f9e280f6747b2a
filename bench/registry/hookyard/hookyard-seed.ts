import { issueToken } from "../../../registry/access/tokens.js";
import { buildRegistry } from "../../../registry/app.js";
import { importVersions } from "../../../registry/publish/import.js";
import { BenchError } from "../../errors.js";
import { mapLimit } from "../map-limit.js";
import type { PackedVersion } from "../packed-corpus.js";
import type { HookyardStorage } from "./hookyard-server.js";

/**
 * Fills a hookyard registry without HTTP, through the registry's own import path (the same for
 * sqlite and PostgreSQL, which it reaches through the store): every version
 * is checked and signed as a publish would be, blobs are written without fsync (a crash only loses
 * the bench), rows land in batches of whole packages. Returns a publish token for the measured
 * publishes, owned by the owner of every seeded package.
 */

const packagesPerBatch = 500;
/** Imports check tarballs with gunzip on the thread pool: a few batches in flight keep both cores busy. */
const batchConcurrency = 4;
export const benchOwner = "bench";

export async function seedHookyard(
  storage: HookyardStorage,
  corpus: readonly PackedVersion[][],
  progress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const { dataDir } = storage;
  const app = await buildRegistry({
    dataDir,
    ...(storage.database ? { database: storage.database } : {}),
    ...(storage.blobs ? { blobs: storage.blobs } : {}),
    logger: false,
  });
  const ctx = app.registry;
  try {
    const { token } = await issueToken(ctx.store, {
      owner: benchOwner,
      scope: "publish",
      expiresInMs: null,
      description: "registry bench",
      now: ctx.now(),
      actor: { owner: "local" },
    });
    const batches: PackedVersion[][] = [];
    for (let i = 0; i < corpus.length; i += packagesPerBatch) {
      batches.push(corpus.slice(i, i + packagesPerBatch).flat());
    }
    const total = batches.reduce((sum, batch) => sum + batch.length, 0);
    let done = 0;
    await mapLimit(
      batches,
      batchConcurrency,
      async (batch) => {
        const items = batch.map((v) => ({
          name: v.pkg.name,
          version: v.version,
          owner: benchOwner,
          tarball: v.tarball,
        }));
        await importVersions(ctx, items, { durable: false });
        done += batch.length;
        if (done % 10_000 < batch.length || done === total) progress(done, total);
      },
      signal,
    );
    return token;
  } catch (error) {
    throw new BenchError(
      "BENCH_ERR_SEED",
      `seeding hookyard's registry in ${dataDir}${storage.database ? " on PostgreSQL" : ""} failed: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    await app.close();
  }
}
