import type Database from "better-sqlite3";
import type { TarballRecord, VersionRecord } from "../store.js";
import { prepareRaw } from "./raw-statement.js";

/**
 * Version rows in raw SQL: they are read on every metadata miss and every tarball request, and
 * drizzle's mapping of a five-table join (nested objects, JSON columns parsed by its column
 * classes) cost more than the query itself. The columns are named as VersionRow has them.
 */
const versionColumns = `
  v.id AS id, v.package_id AS packageId, p.name AS name, v.version AS version,
  v.prerelease AS prerelease, v.integrity AS integrity, v.size AS size, v.manifest AS manifest,
  v.capabilities AS capabilities, v.effects AS effects, v.readme AS readme,
  v.published_at AS publishedAt, publisher.name AS publishedBy, v.signature AS signature,
  v.key_id AS keyId,
  y.reason AS yankReason, y.yanked_at AS yankedAt, yanker.name AS yankedBy,
  d.message AS deprecation, d.deprecated_at AS deprecatedAt, deprecator.name AS deprecatedBy
FROM versions v
JOIN packages p ON p.id = v.package_id
JOIN owners publisher ON publisher.id = v.published_by
LEFT JOIN yanks y ON y.version_id = v.id
LEFT JOIN owners yanker ON yanker.id = y.owner_id
LEFT JOIN deprecations d ON d.version_id = v.id
LEFT JOIN owners deprecator ON deprecator.id = d.owner_id`;

/** A version's yank and deprecation, joined in: null where there is none. Both stores read these alike. */
export interface YankColumns {
  yankReason: string | null;
  yankedAt: string | null;
  yankedBy: string | null;
  deprecation: string | null;
  deprecatedAt: string | null;
  deprecatedBy: string | null;
}

/** A version row as sqlite returns it: JSON columns as text, booleans as 0/1. */
export interface VersionRow extends YankColumns {
  id: number;
  packageId: number;
  name: string;
  version: string;
  prerelease: number;
  integrity: string;
  size: number;
  manifest: string;
  capabilities: string;
  effects: string;
  readme: string | null;
  publishedAt: string;
  publishedBy: string;
  signature: string;
  keyId: string;
}

export function prepareVersionStatements(client: Database.Database) {
  return {
    versionsOfPackage: prepareRaw<[number], VersionRow>(
      client,
      `SELECT ${versionColumns} WHERE v.package_id = ? ORDER BY v.id`,
    ),
    versionByName: prepareRaw<[string, string], VersionRow>(
      client,
      `SELECT ${versionColumns} WHERE p.name = ? AND v.version = ?`,
    ),
    versionWithId: prepareRaw<[number], VersionRow>(client, `SELECT ${versionColumns} WHERE v.id = ?`),
    tarballOf: prepareRaw<[string, string], TarballRecord>(
      client,
      `SELECT v.id AS versionId, v.integrity AS integrity
       FROM versions v JOIN packages p ON p.id = v.package_id
       WHERE p.name = ? AND v.version = ?`,
    ),
  };
}

export function versionRecord(row: VersionRow): VersionRecord {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    prerelease: row.prerelease !== 0,
    integrity: row.integrity,
    size: row.size,
    manifest: JSON.parse(row.manifest) as Record<string, unknown>,
    capabilities: JSON.parse(row.capabilities) as string[],
    effects: JSON.parse(row.effects) as string[],
    readme: row.readme,
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy,
    signature: row.signature,
    keyId: row.keyId,
    ...yankAndDeprecation(row),
  };
}

/** A version's yank and deprecation columns (null where there is none), as both stores read them. */
export function yankAndDeprecation(row: YankColumns): Pick<VersionRecord, "yanked" | "deprecated"> {
  return {
    yanked:
      row.yankReason === null
        ? null
        : { reason: row.yankReason, at: row.yankedAt ?? "", by: row.yankedBy ?? "" },
    deprecated:
      row.deprecation === null
        ? null
        : { message: row.deprecation, at: row.deprecatedAt ?? "", by: row.deprecatedBy ?? "" },
  };
}
