import semver from "semver";
import * as z from "zod";
import type {
  Advisory,
  PackageDocument,
  RegistryClient,
  RegistryVersion,
} from "../client/registry-client.js";
import { describeEffect, describePoint } from "../package/capability-wording.js";
import { installCommand } from "../package/install-command.js";
import { defaults } from "../runner/compiled-hook.js";
import { type CapabilitySummary, describeCapabilities } from "./ui/capability-lines.js";

/** What `hookyard info` tells about one version of a package; `--json` prints exactly this. */
export interface PackageInfo {
  registry: string;
  name: string;
  version: string;
  /** dist-tags.latest; null when every version is yanked or a prerelease. */
  latest: string | null;
  description: string | null;
  publishedAt: string;
  publishedBy: string | null;
  integrity: string;
  keyId: string;
  tarball: string;
  yanked: boolean;
  yankedReason: string | null;
  deprecated: string | null;
  hook: {
    events: Array<{ point: string; text: string }>;
    priority: number;
    /** Whether the manifest left the priority to the default. */
    defaultPriority: boolean;
    matcher: Record<string, string>;
  };
  effects: Array<{ effect: string; text: string }>;
  capabilities: CapabilitySummary;
  advisories: { affecting: Advisory[]; other: Advisory[] };
  /** Newest first. */
  versions: Array<{
    version: string;
    publishedAt: string;
    yanked: boolean;
    yankedReason: string | null;
    deprecated: string | null;
  }>;
  install: string;
}

/**
 * The manifest fields info shows. The registry validated the manifest at publish, but this reads a
 * document from any registry: each field is read on its own and falls back if it is not as expected.
 */
const shownManifest = z.object({
  description: z.string().optional().catch(undefined),
  hookyard: z
    .object({
      events: z.array(z.string()).catch([]),
      priority: z.number().optional().catch(undefined),
      matcher: z.record(z.string(), z.string()).catch({}),
    })
    .catch({ events: [], matcher: {} }),
});

export function packageInfo(
  client: Pick<RegistryClient, "url" | "tarballUrl">,
  document: PackageDocument,
  shown: RegistryVersion,
  advisories: readonly Advisory[],
): PackageInfo {
  const manifest = shownManifest.parse(shown.manifest);
  const latest = document["dist-tags"].latest ?? null;
  const affects = (a: Advisory) => semver.satisfies(shown.version, a.range, { includePrerelease: true });
  // A yanked version is not one to suggest installing: the latest is, when there is one.
  const pinned = shown.version !== latest && !(shown.yanked && latest !== null);
  return {
    registry: client.url,
    name: document.name,
    version: shown.version,
    latest,
    description: manifest.description ?? document.description ?? null,
    publishedAt: shown.publishedAt,
    publishedBy: typeof shown.publishedBy === "string" ? shown.publishedBy : null,
    integrity: shown.integrity,
    keyId: shown.keyId,
    tarball: client.tarballUrl(shown.tarball),
    yanked: shown.yanked,
    yankedReason: shown.yankedReason,
    deprecated: shown.deprecated,
    hook: {
      events: manifest.hookyard.events.map((point) => ({ point, text: describePoint(point) })),
      priority: manifest.hookyard.priority ?? defaults.priority,
      defaultPriority: manifest.hookyard.priority === undefined,
      matcher: manifest.hookyard.matcher,
    },
    effects: shown.effects.map((effect) => ({ effect, text: describeEffect(effect) })),
    capabilities: describeCapabilities(shown.capabilities),
    advisories: { affecting: advisories.filter(affects), other: advisories.filter((a) => !affects(a)) },
    versions: newestFirst(document).map(({ version, publishedAt, yanked, yankedReason, deprecated }) => ({
      version,
      publishedAt,
      yanked,
      yankedReason,
      deprecated,
    })),
    install: installCommand(`${document.name}${pinned ? `@${shown.version}` : ""}`, shown.capabilities),
  };
}

/**
 * The version info shows: with no range the `latest` dist-tag (else the highest version, whatever
 * it is, so a package whose versions are all yanked can still be looked at).
 */
export function defaultVersion(document: PackageDocument): RegistryVersion | undefined {
  const latest = document["dist-tags"].latest;
  const tagged = latest === undefined ? undefined : document.versions[latest];
  return tagged ?? newestFirst(document)[0];
}

/** Versions by semver, newest first; a version string that is not semver is left out rather than failing. */
function newestFirst(document: PackageDocument): RegistryVersion[] {
  return Object.values(document.versions)
    .filter((v) => semver.valid(v.version) !== null)
    .sort((a, b) => semver.rcompare(a.version, b.version));
}
