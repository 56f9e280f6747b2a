import { createGunzip } from "node:zlib";
import { TarballError } from "./errors.js";
import { ratioFloorBytes, type TarballLimits } from "./limits.js";

const formatSize = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * The decompressed bytes of `gzipped`, chunk by chunk. Stops (and frees zlib) as soon as the output
 * passes the size cap or the ratio cap, so a bomb costs at most the cap in memory and time; the
 * caller sees each chunk as it comes and can refuse the archive long before its end.
 */
export async function* gunzipCapped(gzipped: Buffer, limits: TarballLimits): AsyncGenerator<Buffer> {
  if (gzipped.length > limits.maxGzipBytes) {
    throw new TarballError(
      "TARBALL_ERR_GZIP_TOO_LARGE",
      `the tarball is ${formatSize(gzipped.length)}, over the ${formatSize(limits.maxGzipBytes)} the registry accepts: leave build output, tests and assets out of the package ("files" in package.json)`,
    );
  }
  const ratioCap = Math.max(ratioFloorBytes, limits.maxRatio * gzipped.length);
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  gunzip.end(gzipped);
  let total = 0;
  try {
    for await (const chunk of gunzip) {
      total += (chunk as Buffer).length;
      if (total > limits.maxUnpackedBytes) {
        throw new TarballError(
          "TARBALL_ERR_TOO_LARGE",
          `the tarball unpacks to more than ${formatSize(limits.maxUnpackedBytes)}, the most the registry accepts: leave large files out of the package`,
        );
      }
      if (total > ratioCap) {
        throw new TarballError(
          "TARBALL_ERR_RATIO",
          `the tarball unpacks to more than ${limits.maxRatio} times its compressed size (${gzipped.length} bytes), as a decompression bomb does: leave long runs of repeated bytes out of the package`,
        );
      }
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof TarballError) throw error;
    throw new TarballError(
      "TARBALL_ERR_CORRUPT",
      `the tarball is not valid gzip (${(error as Error).message}): upload the .tgz that "hookyard pack" wrote, unchanged`,
      { cause: error },
    );
  } finally {
    gunzip.destroy();
  }
}
