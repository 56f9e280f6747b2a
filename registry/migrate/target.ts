import type { SearchRow, SigningKey, SourceRow } from "./source.js";
import type { TableSpec } from "./tables.js";

/**
 * What a migration leaves in its target, written before anything else: whose migration it is, and
 * how far it got (per table, the last source rowid committed). A rerun after a crash reads it and
 * continues; a target without it that holds rows is another registry's, and is refused.
 */
export interface MigrationMarker {
  /** The source data dir, resolved. */
  source: string;
  /** The source's signing key id: a data dir moved and filled anew is another source. */
  keyId: string | null;
  state: "copying" | "done";
  /** Per table, the last source rowid copied. */
  progress: Record<string, number>;
  startedAt: string;
  finishedAt: string | null;
}

/** The table of the marker, in either database: one row. */
export const markerTable = "registry_migration";

/**
 * The tables a registry writes in either database: rows in any of them mean another registry lives
 * in the target. (PostgreSQL has one more, registry_settings, for the signing key.)
 */
export const registryTables = [
  "owners",
  "tokens",
  "packages",
  "package_owners",
  "scope_owners",
  "versions",
  "yanks",
  "deprecations",
  "advisories",
  "download_counts",
  "audit_log",
  "package_search",
];

/**
 * A database that a migration writes (PostgreSQL or sqlite). Each write is one transaction that
 * also moves the marker, so what is committed and what the marker says never disagree.
 */
export interface MigrationTarget {
  /** Said in messages: a URL without its password, or a file. */
  readonly description: string;
  readMarker(): Promise<MigrationMarker | undefined>;
  /** The registry tables (and the settings) that hold at least one row. */
  tablesWithRows(): Promise<string[]>;
  /**
   * Writes the marker (unless there is one) and the signing key where a registry on this target
   * reads it; a different key already there is REG_ERR_MIGRATE_TARGET_NOT_EMPTY.
   */
  begin(marker: MigrationMarker, key: SigningKey | undefined): Promise<void>;
  /** Inserts rows (skipping any already there) and records `lastRowid` as the table's progress. */
  insertRows(table: TableSpec, rows: readonly SourceRow[], lastRowid: number): Promise<void>;
  /** Replaces the search index with these rows. */
  replaceSearch(rows: readonly SearchRow[]): Promise<void>;
  /** After the rows: id sequences continue past the copied ids. */
  continueSequences(tables: readonly TableSpec[]): Promise<void>;
  count(table: string): Promise<number>;
  markDone(at: string): Promise<void>;
  close(): Promise<void>;
}
