import { gunzipCapped } from "./gunzip-capped.js";
import { resolveLimits, type TarballLimits } from "./limits.js";
import { type InspectedTarball, PackageContents } from "./package-contents.js";
import { TarReader } from "./tar-reader.js";

export { defaultTarballLimits, type TarballLimits } from "./limits.js";
export type { InspectedTarball, TarballFile } from "./package-contents.js";

/**
 * Decides whether a published .tgz is safe to store and later extract, and returns what it holds.
 * Nothing touches the disk. Decompression and parsing run together, so the first refused entry
 * stops the work there; decompression stops at the size and ratio caps whatever the headers
 * claim. Throws a TarballError naming the first problem. File data are views into the
 * decompressed chunks: copy one to keep it apart from the rest.
 */
export async function inspectTarball(
  gzipped: Buffer,
  limits?: Partial<TarballLimits>,
): Promise<InspectedTarball> {
  const resolved = resolveLimits(limits);
  const contents = new PackageContents(resolved);
  const reader = new TarReader(contents);
  for await (const chunk of gunzipCapped(gzipped, resolved)) reader.push(chunk);
  reader.end();
  return contents.result();
}
