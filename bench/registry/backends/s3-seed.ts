import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { integrityHex } from "../../../package/integrity.js";
import { BenchError } from "../../errors.js";
import { mapLimit } from "../map-limit.js";
import type { PackedVersion } from "../packed-corpus.js";

const writeConcurrency = 64;

/**
 * Fills the bucket the way s3rver would after 50,000 PutObjects, in seconds rather than minutes
 * (its PUTs ran at about 200/s here): each tarball written into s3rver's directory, in the layout
 * its FilesystemStore reads (`<bucket>/<key>._S3rver_object`, with its md5 and metadata beside it),
 * under the key the registry's S3 blob store uses (S3BlobStore.keyOf: `sha512/<hh>/<hex>`). The
 * check before measuring downloads a seeded tarball through every S3 column, and the start-up
 * sweep lists the bucket through the S3 API, so a layout s3rver did not read would stop the bench.
 */
export async function seedBucket(
  objectsDir: string,
  bucket: string,
  corpus: readonly PackedVersion[][],
  signal?: AbortSignal,
): Promise<void> {
  const versions = corpus.flat();
  try {
    const prefixes = new Set(versions.map((v) => keyOf(v.integrity).split("/").slice(0, 2).join("/")));
    for (const prefix of prefixes) await mkdir(join(objectsDir, bucket, prefix), { recursive: true });
    await mapLimit(
      versions,
      writeConcurrency,
      async (v) => {
        const file = join(objectsDir, bucket, keyOf(v.integrity));
        await writeFile(`${file}._S3rver_object`, v.tarball);
        await writeFile(`${file}._S3rver_object.md5`, createHash("md5").update(v.tarball).digest("hex"));
        await writeFile(
          `${file}._S3rver_metadata.json`,
          JSON.stringify({ "content-type": "application/octet-stream" }),
        );
      },
      signal,
    );
  } catch (error) {
    throw new BenchError("BENCH_ERR_SEED", `seeding the S3 bucket failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function keyOf(integrity: string): string {
  const hex = integrityHex(integrity);
  if (!hex) throw new Error(`not a sha512 integrity: ${integrity}`);
  return `sha512/${hex.slice(0, 2)}/${hex}`;
}
