/**
 * What `registry migrate` copies, row by row, in an order the foreign keys allow. Both schemas
 * (db/schema.ts and db/pg/schema.ts) have these tables with the same column names; what differs is
 * each column's type, said here so the copy maps it explicitly rather than hoping. A table of the
 * sqlite schema that is in neither list below makes a migration refuse to start
 * (REG_ERR_MIGRATE_UNKNOWN_TABLE), and test/registry/migrate-tables.test.ts fails on it: a new
 * table must be taught to migrate before it can ship.
 */

/** How a column's sqlite value becomes the target's: as is, 0/1 to a boolean, JSON text to jsonb. */
export type ColumnKind = "plain" | "boolean" | "json";

export interface TableSpec {
  name: string;
  columns: ReadonlyArray<readonly [column: string, kind: ColumnKind]>;
  /** A serial id column whose PostgreSQL sequence must continue after the copied ids. */
  serial?: string;
}

const plain = (...names: string[]) => names.map((name) => [name, "plain"] as const);

export const migratedTables: readonly TableSpec[] = [
  { name: "owners", columns: plain("id", "name", "created_at"), serial: "id" },
  {
    name: "tokens",
    // PostgreSQL's `seq` (insertion order) is left to its sequence: rows are copied in rowid order.
    columns: plain(
      "id",
      "owner_id",
      "hash",
      "scope",
      "description",
      "created_at",
      "expires_at",
      "revoked_at",
    ),
  },
  {
    name: "packages",
    columns: plain("id", "name", "skeleton", "created_at", "downloads"),
    serial: "id",
  },
  {
    name: "package_owners",
    columns: plain("package_id", "owner_id", "added_at"),
  },
  { name: "scope_owners", columns: plain("scope", "owner_id", "added_at") },
  {
    name: "versions",
    columns: [
      ...plain("id", "package_id", "version"),
      ["prerelease", "boolean"],
      ...plain("integrity", "size"),
      ["manifest", "json"],
      ["capabilities", "json"],
      ["effects", "json"],
      ...plain("readme", "published_at", "published_by", "signature", "key_id"),
    ],
    serial: "id",
  },
  { name: "yanks", columns: plain("version_id", "reason", "yanked_at", "owner_id") },
  {
    name: "deprecations",
    columns: plain("version_id", "message", "deprecated_at", "owner_id"),
  },
  {
    name: "advisories",
    columns: plain("id", "package_name", "range", "severity", "text", "created_at", "created_by"),
    serial: "id",
  },
  { name: "download_counts", columns: plain("version_id", "day", "count") },
  {
    name: "audit_log",
    columns: [...plain("id", "at", "actor", "token_id", "action", "subject"), ["details", "json"]],
    serial: "id",
  },
];

/**
 * Tables of an sqlite registry that are not copied row by row: the search index, rebuilt on the
 * target from the source's index rows; FTS5's own shadow tables; drizzle's and sqlite's
 * bookkeeping; and the marker a migration leaves in a target (an sqlite target may be migrated on).
 */
export const notCopiedTables: ReadonlySet<string> = new Set([
  "package_search",
  "package_search_data",
  "package_search_idx",
  "package_search_content",
  "package_search_docsize",
  "package_search_config",
  "__drizzle_migrations",
  "sqlite_sequence",
  "registry_migration",
]);

/** The sqlite tables migrate does not know: none, or the migration refuses to start. */
export function unknownTables(tables: readonly string[]): string[] {
  const known = new Set(migratedTables.map((table) => table.name));
  return tables.filter(
    (name) => !known.has(name) && !notCopiedTables.has(name) && !name.startsWith("sqlite_"),
  );
}
