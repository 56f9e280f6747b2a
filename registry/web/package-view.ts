import semver from "semver";
import * as z from "zod";
import { displayVersion, latestVersion } from "../documents/latest.js";
import { RegistryError } from "../errors.js";
import type { AdvisoryRecord, RegistryStore, VersionRecord } from "../store.js";

/** Everything a package page or a version page shows, read from the store. */
export interface PackageView {
  name: string;
  /** The version the page is about: the one asked for, else the one search shows. */
  shown: VersionRecord;
  /** What the page shows of the shown version's package.json. */
  manifest: ShownManifest;
  /** Newest first. */
  versions: VersionRecord[];
  /** dist-tags.latest; undefined when every version is yanked or a prerelease. */
  latest: string | undefined;
  /** True on /packages/:name/v/:version. */
  pinned: boolean;
  owners: string[];
  advisories: Array<AdvisoryRecord & { affectsShown: boolean }>;
  downloads: number;
  lastPublishedAt: string;
}

/**
 * The manifest fields a page shows. The stored manifest passed packageManifestSchema at publish,
 * but that schema's output cannot be parsed by it again (capabilities become descriptors), and a
 * page must not fail over one odd field: each is read on its own, and left out if it is not as expected.
 */
const shownManifest = z.object({
  description: z.string().optional().catch(undefined),
  license: z.string().optional().catch(undefined),
  homepage: z.string().optional().catch(undefined),
  repository: z
    .union([z.string(), z.object({ url: z.string() }).transform((r) => r.url)])
    .optional()
    .catch(undefined),
  keywords: z.array(z.string()).catch([]),
  hookyard: z
    .object({
      events: z.array(z.string()).catch([]),
      matcher: z.record(z.string(), z.string()).catch({}),
      priority: z.number().optional().catch(undefined),
    })
    .catch({ events: [], matcher: {} }),
});
export type ShownManifest = z.output<typeof shownManifest>;

/** Throws REG_ERR_PACKAGE_NOT_FOUND or REG_ERR_VERSION_NOT_FOUND for what is not there. */
export async function loadPackageView(
  store: RegistryStore,
  name: string,
  version?: string,
): Promise<PackageView> {
  const pkg = await store.findPackage(name);
  if (!pkg)
    throw new RegistryError("REG_ERR_PACKAGE_NOT_FOUND", `There is no package ${name} in this registry.`);
  const versions = (await store.listVersions(pkg.id)).sort((a, b) => semver.rcompare(a.version, b.version));
  const wanted = version ?? displayVersion(versions);
  const shown = versions.find((v) => v.version === wanted);
  if (!shown)
    throw new RegistryError("REG_ERR_VERSION_NOT_FOUND", `There is no version ${version} of ${name}.`);
  const advisories = await store.advisoriesFor([name]);
  return {
    name,
    shown,
    manifest: shownManifest.parse(shown.manifest),
    versions,
    latest: latestVersion(versions),
    pinned: version !== undefined,
    owners: (await store.packageOwners(name)) ?? [],
    advisories: advisories.map((advisory) => ({
      ...advisory,
      affectsShown: semver.satisfies(shown.version, advisory.range, { includePrerelease: true }),
    })),
    downloads: pkg.downloads,
    // ISO 8601 times in UTC sort as text.
    lastPublishedAt: versions
      .map((v) => v.publishedAt)
      .sort()
      .at(-1) as string,
  };
}
