export interface TarballLimits {
  /** Compressed size of the .tgz. */
  maxGzipBytes: number;
  /** Decompressed size of the tar stream (file bytes plus their headers). */
  maxUnpackedBytes: number;
  /** Decompressed bytes per compressed byte, enforced once the output passes `ratioFloorBytes`. */
  maxRatio: number;
  /** Files and folders in the archive (pax and GNU long-name headers do not count). */
  maxEntries: number;
  /** UTF-8 bytes of one path component. */
  maxNameBytes: number;
  /** Path components below `package/`. */
  maxDepth: number;
}

/**
 * A hook package is one bundled ES module plus package.json and a readme: tens to hundreds of KB.
 * 5 MiB compressed (the cap) leaves room for assets; 50 MiB unpacked is ten times that at
 * JavaScript's usual 3-10x compression. A ratio of 100 passes tar header padding (20-80x) and
 * refuses runs of zeros. 1,000 entries and depth 32 are the caps; 255 bytes is NAME_MAX on
 * Linux, macOS and Windows.
 */
export const defaultTarballLimits: TarballLimits = Object.freeze({
  maxGzipBytes: 5 * 1024 * 1024,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxRatio: 100,
  maxEntries: 1000,
  maxNameBytes: 255,
  maxDepth: 32,
});

/** Below this much output the ratio is not checked: a tiny archive is mostly zero padding, and harmless. */
export const ratioFloorBytes = 1024 * 1024;

/** Whole relative path, in UTF-8 bytes: macOS's PATH_MAX; real packages stay under 200. */
export const maxPathBytes = 1024;

/** A pax or GNU long-name header body: room for a 1 KiB path and some metadata, never a payload. */
export const maxMetaBytes = 64 * 1024;

export function resolveLimits(limits: Partial<TarballLimits> = {}): TarballLimits {
  const resolved = { ...defaultTarballLimits };
  for (const key of Object.keys(defaultTarballLimits) as (keyof TarballLimits)[]) {
    const value = limits[key];
    if (value !== undefined) {
      if (!(value > 0)) throw new RangeError(`tarball limit ${key} must be a positive number, got ${value}`);
      resolved[key] = value;
    }
  }
  return resolved;
}
