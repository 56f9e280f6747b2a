import { createHash } from "node:crypto";
import { computeIntegrity } from "../../package/integrity.js";
import { packTarball } from "../../package/tarball/pack.js";
import { type CorpusPackage, filesOf, manifestOf } from "./corpus.js";
import { mapLimit } from "./map-limit.js";

/**
 * Every version's tarball, packed once per run with hookyard's reproducible packer and handed to
 * both seeders, so the two registries serve byte-identical tarballs.
 */

export interface PackedVersion {
  pkg: CorpusPackage;
  version: string;
  manifest: Record<string, unknown>;
  readme: string;
  tarball: Buffer;
  /** SRI sha512, as both registries advertise it. */
  integrity: string;
  /** sha1 hex, which npm documents still carry. */
  shasum: string;
}

export async function packVersion(pkg: CorpusPackage, version: string): Promise<PackedVersion> {
  const files = filesOf(pkg, version);
  const tarball = await packTarball(files);
  return {
    pkg,
    version,
    manifest: manifestOf(pkg, version),
    readme: files.find((file) => file.path === "README.md")?.data ?? "",
    tarball,
    integrity: computeIntegrity(tarball),
    shasum: createHash("sha1").update(tarball).digest("hex"),
  };
}

/** gzip runs on libuv's thread pool: several packs in flight keep both cores busy. */
const packConcurrency = 8;

/** Packs every version of every package; `progress` is called now and then with the count done. */
export async function packCorpus(
  packages: readonly CorpusPackage[],
  progress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<PackedVersion[][]> {
  const total = packages.reduce((sum, pkg) => sum + pkg.versions.length, 0);
  let done = 0;
  return mapLimit(
    packages,
    packConcurrency,
    async (pkg) => {
      const versions: PackedVersion[] = [];
      for (const version of pkg.versions) versions.push(await packVersion(pkg, version));
      done += versions.length;
      if (done % 10_000 < versions.length) progress(done, total);
      return versions;
    },
    signal,
  );
}
