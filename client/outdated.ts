import semver from "semver";
import type { LockEntry } from "../workspace/lockfile.js";
import { lockEntryRegistry } from "./access/lock-registry.js";
import { latestVersion, newestInRange } from "./install/package-spec.js";
import { RegistryClient } from "./registry-client.js";

/** One installed community hook against its registry, as `hookyard outdated` shows it (npm's columns). */
export interface OutdatedPackage {
  name: string;
  /** The installed version (hookyard.lock). */
  current: string;
  /** The newest version the range allows (`hookyard update` moves there); null when none does. */
  wanted: string | null;
  /** The newest of all versions, neither yanked nor a prerelease (`hookyard update --latest`). */
  latest: string | null;
  /** The range in hookyard.json; null when it has none for this package. */
  range: string | null;
  registry: string;
  /** Whether `wanted` or `latest` is newer than `current`. */
  outdated: boolean;
}

/** Asks each package's own registry (its resolved URL in hookyard.lock) for its versions. */
export async function outdatedPackages(
  entries: ReadonlyArray<readonly [string, Pick<LockEntry, "version" | "resolved">]>,
  ranges: Readonly<Record<string, string>>,
): Promise<OutdatedPackage[]> {
  const clients = new Map<string, RegistryClient>();
  const rows = await Promise.all(
    entries.map(async ([name, entry]) => {
      const registry = lockEntryRegistry(name, entry);
      const client = clients.get(registry) ?? new RegistryClient(registry);
      clients.set(registry, client);
      const document = await client.packageDocument(name);
      const range = ranges[name] ?? null;
      const wanted = newestInRange(document, range ?? undefined)?.version ?? null;
      const latest = latestVersion(document)?.version ?? null;
      const newer = (version: string | null) => version !== null && semver.gt(version, entry.version);
      return {
        name,
        current: entry.version,
        wanted,
        latest,
        range,
        registry,
        outdated: newer(wanted) || newer(latest),
      };
    }),
  );
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
