import { dirname, join } from "node:path";
import type { BlobStore } from "../blobs/blob-store.js";
import { type BlobsLocation, describeBlobs, openBlobStoreFromUrl, parseBlobsUrl } from "../blobs/blob-url.js";
import { type DatabaseLocation, describeDatabase, parseDatabaseUrl } from "../database-url.js";
import { RegistryError } from "../errors.js";
import { type BlobCopyCount, copyBlobs } from "./copy-blobs.js";
import { PgMigrationTarget } from "./pg-target.js";
import { MigrationSource } from "./source.js";
import { SqliteMigrationTarget } from "./sqlite-target.js";
import { migratedTables, unknownTables } from "./tables.js";
import type { MigrationTarget } from "./target.js";

export interface MigrateOptions {
  /** The embedded registry's data dir. */
  from: string;
  /** `postgres://…` or `sqlite:<path>`. */
  toDatabase: string | DatabaseLocation;
  /**
   * Where the tarballs go: `file:<dir>` (`<dir>/sha512/…`, as a data dir's blobs/). Needed for
   * PostgreSQL, whose processes share it; for sqlite it defaults to the blobs/ beside the file.
   */
  toBlobs?: string | BlobsLocation;
  now?: () => Date;
  onProgress?: (progress: MigrationProgress) => void;
}

export type MigrationProgress =
  | { phase: "blobs"; done: number; total: number }
  | { phase: "table"; table: string; index: number; tables: number; copied: number; total: number }
  | { phase: "search"; rows: number };

export interface MigrationSummary {
  source: string;
  /** The target database, without its password. */
  database: string;
  blobs: string;
  /** True when this run continued an unfinished (or finished) migration of the same source. */
  resumed: boolean;
  /** The key id that signs every version, now read from the target. */
  signingKey: string | null;
  tables: Array<{ name: string; rows: number }>;
  searchRows: number;
  blobCount: BlobCopyCount;
  startedAt: string;
  finishedAt: string;
}

/** Rows per transaction: each one also moves the marker, so a crash loses at most one batch's work. */
const batchRows = 500;

/**
 * Moves an embedded registry (its sqlite rows, its tarballs, its signing key) to another database
 * and blob store, row by row, so ids, times and signatures stay as they were. The target records
 * its progress first (target.ts), so a run that was killed is continued by running it again; a
 * target that holds anything else is refused. Every blob is checked on both sides, and every
 * table's row count is compared at the end (REG_ERR_MIGRATE_VERIFY).
 */
export async function migrateRegistry(options: MigrateOptions): Promise<MigrationSummary> {
  const now = options.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const database =
    typeof options.toDatabase === "string" ? parseDatabaseUrl(options.toDatabase) : options.toDatabase;
  const blobs = blobsOf(database, options.toBlobs);
  const source = await MigrationSource.open(options.from);
  try {
    const unfinished = source.unfinishedMigration();
    if (unfinished) {
      throw new RegistryError(
        "REG_ERR_MIGRATE_OPTIONS",
        `${source.root} is itself the target of a migration from ${unfinished} that has not finished: finish that one first (run it again)`,
      );
    }
    const unknown = unknownTables(source.tables());
    if (unknown.length > 0) {
      throw new RegistryError(
        "REG_ERR_MIGRATE_UNKNOWN_TABLE",
        `the source ${source.root} has table(s) this hookyard does not migrate (${unknown.join(", ")}): it was written by a newer hookyard; migrate with that version`,
      );
    }
    const target: MigrationTarget =
      database.kind === "postgres"
        ? await PgMigrationTarget.open(database.url)
        : await SqliteMigrationTarget.open(database.file);
    try {
      const openBlobs = () =>
        openBlobStoreFromUrl(blobs.location, blobs.tmpDir ? { tmpDir: blobs.tmpDir } : {});
      return await migrateInto(source, target, openBlobs, {
        database: database.kind === "postgres" ? describeDatabase(database.url) : `sqlite:${database.file}`,
        blobs: describeLocation(blobs.location),
        now,
        progress,
      });
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** A blobs location as the summary shows it (registry-s3's BlobsLocation also has `s3` ones). */
function describeLocation(location: BlobsLocation): string {
  if (location.kind === "file") return `file:${location.dir}`;
  return describeBlobs(`s3://${(location as unknown as { bucket: string }).bucket}`);
}

function blobsOf(
  database: DatabaseLocation,
  given: string | BlobsLocation | undefined,
): { location: BlobsLocation; tmpDir?: string } {
  if (given !== undefined) return { location: typeof given === "string" ? parseBlobsUrl(given) : given };
  if (database.kind === "postgres") {
    throw new RegistryError(
      "REG_ERR_MIGRATE_OPTIONS",
      "pass --to-blobs file:<dir> with a PostgreSQL target: the tarballs go where every registry process reads them (serve them with --data <data-dir> when <dir> is that data dir's blobs/)",
    );
  }
  // The folder of the sqlite file becomes a whole data dir: database, blobs/, keys/, tmp/.
  const root = dirname(database.file);
  return { location: { kind: "file", dir: join(root, "blobs") }, tmpDir: join(root, "tmp") };
}

async function migrateInto(
  source: MigrationSource,
  target: MigrationTarget,
  openBlobs: () => Promise<BlobStore>,
  context: { database: string; blobs: string; now: () => Date; progress: (p: MigrationProgress) => void },
): Promise<MigrationSummary> {
  const startedAt = context.now().toISOString();
  const keyId = source.signingKey?.keyId ?? null;
  const named = source.integrities();
  let marker = await target.readMarker();
  const resumed = marker !== undefined;
  if (marker && (marker.source !== source.root || marker.keyId !== keyId)) {
    throw new RegistryError(
      "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
      `${context.database} holds a migration from another registry (${marker.source}, key ${marker.keyId ?? "none"}): migrate ${source.root} into an empty database`,
    );
  }
  if (!marker) {
    const filled = await target.tablesWithRows();
    if (filled.length > 0) {
      throw new RegistryError(
        "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
        `${context.database} already holds a registry (rows in ${filled.join(", ")}): migrate into an empty database (createdb a new one); nothing was changed`,
      );
    }
  }
  // Opened only now, so that a refused database leaves no new folder behind either.
  const targetBlobs = await openBlobs();
  await refuseForeignBlobs(source, targetBlobs, named, context.blobs);
  marker ??= { source: source.root, keyId, state: "copying", progress: {}, startedAt, finishedAt: null };
  await target.begin(marker, source.signingKey);

  const blobCount = await copyBlobs(source.blobs, targetBlobs, named, (done, total) =>
    context.progress({ phase: "blobs", done, total }),
  );

  const tables: MigrationSummary["tables"] = [];
  for (const [index, table] of migratedTables.entries()) {
    const total = source.count(table.name);
    let after = marker.progress[table.name] ?? 0;
    let reported = false;
    for (;;) {
      const rows = source.rows(table, after, batchRows);
      if (rows.length === 0) break;
      after = rows[rows.length - 1]?.rowid ?? after;
      await target.insertRows(table, rows, after);
      const copied = await target.count(table.name);
      context.progress({
        phase: "table",
        table: table.name,
        index: index + 1,
        tables: migratedTables.length,
        copied,
        total,
      });
      reported = true;
      if (rows.length < batchRows) break;
    }
    if (!reported) {
      const copied = await target.count(table.name);
      context.progress({
        phase: "table",
        table: table.name,
        index: index + 1,
        tables: migratedTables.length,
        copied,
        total,
      });
    }
    tables.push({ name: table.name, rows: total });
  }
  const searchRows = source.searchRows();
  await target.replaceSearch(searchRows);
  context.progress({ phase: "search", rows: searchRows.length });
  await target.continueSequences(migratedTables);

  const wrong: string[] = [];
  for (const { name, rows } of tables) {
    const found = await target.count(name);
    if (found !== rows) wrong.push(`${name}: ${rows} in the source, ${found} in the target`);
  }
  const indexed = await target.count("package_search");
  if (indexed !== searchRows.length)
    wrong.push(`package_search: ${searchRows.length} in the source, ${indexed} in the target`);
  // Checked whole when written; what could happen since is a delete (a serve's start-up sweep).
  const gone = [];
  for (const [integrity, versions] of named)
    if ((await targetBlobs.revision(integrity)) === undefined) gone.push(...versions);
  if (gone.length > 0)
    wrong.push(
      `the tarballs of ${gone.slice(0, 5).join(", ")}${gone.length > 5 ? ", …" : ""} are gone from the target`,
    );
  if (wrong.length > 0) {
    throw new RegistryError(
      "REG_ERR_MIGRATE_VERIFY",
      `the target does not hold what the source does (${wrong.join("; ")}): was the target written to during the migration? Migrate into a new, empty database`,
    );
  }
  const finishedAt = context.now().toISOString();
  await target.markDone(finishedAt);
  return {
    source: source.root,
    database: context.database,
    blobs: context.blobs,
    resumed,
    signingKey: keyId,
    tables,
    searchRows: searchRows.length,
    blobCount,
    startedAt: marker.startedAt,
    finishedAt,
  };
}

/**
 * Blobs in the target that the source has no trace of belong to another registry, and the new
 * registry's start-up sweep would delete them as orphans: refused before anything is written.
 */
async function refuseForeignBlobs(
  source: MigrationSource,
  target: BlobStore,
  named: ReadonlyMap<string, readonly string[]>,
  where: string,
): Promise<void> {
  const own = new Set([...named.keys(), ...(await source.blobs.list())]);
  const foreign = (await target.list()).filter((integrity) => !own.has(integrity));
  if (foreign.length > 0) {
    throw new RegistryError(
      "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
      `${where} holds ${foreign.length} tarball(s) the source does not have (another registry's): pass an empty directory to --to-blobs; nothing was changed`,
    );
  }
}
