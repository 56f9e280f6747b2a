import type { PackageRecord, VersionRecord } from "../store.js";
import { latestVersion } from "./latest.js";

/** One version as GET /v1/packages/:name shows it. */
export interface VersionDocument {
  version: string;
  integrity: string;
  size: number;
  /** Requested capabilities as grant strings: the ceiling of what a user may grant. */
  capabilities: string[];
  effects: string[];
  publishedAt: string;
  publishedBy: string;
  yanked: boolean;
  yankedReason: string | null;
  /** The deprecation message, or null. */
  deprecated: string | null;
  /** base64 ed25519 signature over `name@version:integrity`, by the key `keyId` (GET /v1/keys). */
  signature: string;
  keyId: string;
  /** Path of the tarball, relative to the registry's URL. */
  tarball: string;
  manifest: Record<string, unknown>;
}

export interface PackageDocument {
  name: string;
  description: string | null;
  "dist-tags": { latest?: string };
  versions: Record<string, VersionDocument>;
  /** The readme of dist-tags.latest (else of the newest version). */
  readme: string | null;
  createdAt: string;
}

export function tarballPath(name: string, version: string): string {
  return `/v1/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}/tarball`;
}

export function versionDocument(v: VersionRecord): VersionDocument {
  return {
    version: v.version,
    integrity: v.integrity,
    size: v.size,
    capabilities: v.capabilities,
    effects: v.effects,
    publishedAt: v.publishedAt,
    publishedBy: v.publishedBy,
    yanked: v.yanked !== null,
    yankedReason: v.yanked?.reason ?? null,
    deprecated: v.deprecated?.message ?? null,
    signature: v.signature,
    keyId: v.keyId,
    tarball: tarballPath(v.name, v.version),
    manifest: v.manifest,
  };
}

export function packageDocument(pkg: PackageRecord, versions: readonly VersionRecord[]): PackageDocument {
  const latest = latestVersion(versions);
  const shown = versions.find((v) => v.version === latest) ?? versions.at(-1);
  return {
    name: pkg.name,
    description: (shown?.manifest.description as string | undefined) ?? null,
    "dist-tags": latest === undefined ? {} : { latest },
    versions: Object.fromEntries(versions.map((v) => [v.version, versionDocument(v)])),
    readme: shown?.readme ?? null,
    createdAt: pkg.createdAt,
  };
}
