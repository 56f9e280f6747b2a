import type pg from "pg";
import { describeDatabase } from "../db/describe-database.js";
import { openPgPool } from "../db/pg/open.js";
import { searchDocumentSql, searchText } from "../db/pg/search-text.js";
import { RegistryError } from "../errors.js";
import type { SearchRow, SigningKey, SourceRow } from "./source.js";
import type { ColumnKind, TableSpec } from "./tables.js";
import { type MigrationMarker, type MigrationTarget, markerTable, registryTables } from "./target.js";
import { differentKey, writtenMeanwhile } from "./target-errors.js";

/** Held by the migration's connection: a second migration to the same database is refused. */
const migrationLockKey = 0x68796d67; // "hymg"

/** The tables a registry on PostgreSQL writes: rows in any of them mean another registry lives here. */
const pgRegistryTables = [...registryTables, "registry_settings"];

/**
 * A PostgreSQL database as a migration's target: its schema brought up to date by the registry's
 * own migrations (db/pg/open.ts), then written through one connection that holds an advisory lock
 * for the whole migration. The signing key goes where every process reads it (registry_settings).
 */
export class PgMigrationTarget implements MigrationTarget {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly db: pg.PoolClient,
    readonly description: string,
  ) {}

  static async open(url: string): Promise<PgMigrationTarget> {
    const pool = await openPgPool(url);
    let db: pg.PoolClient | undefined;
    try {
      db = await pool.connect();
      const locked = await db.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [
        migrationLockKey,
      ]);
      if (!locked.rows[0]?.ok) {
        throw new RegistryError(
          "REG_ERR_MIGRATE_TARGET_BUSY",
          `another \`hookyard registry migrate\` is writing to ${describeDatabase(url)}: wait for it to end (or stop it, then run this again to continue its migration)`,
        );
      }
      return new PgMigrationTarget(pool, db, describeDatabase(url));
    } catch (error) {
      db?.release(true);
      await pool.end().catch(() => {});
      throw error;
    }
  }

  private async transaction(work: () => Promise<void>): Promise<void> {
    await this.db.query("BEGIN");
    try {
      await work();
      await this.db.query("COMMIT");
    } catch (error) {
      await this.db.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  async readMarker(): Promise<MigrationMarker | undefined> {
    const exists = await this.db.query("SELECT to_regclass($1) AS t", [markerTable]);
    if (!exists.rows[0]?.t) return undefined;
    const found = await this.db.query<MigrationMarker>(
      `SELECT source, key_id AS "keyId", state, progress, started_at AS "startedAt", finished_at AS "finishedAt"
       FROM ${markerTable} WHERE id = 1`,
    );
    return found.rows[0];
  }

  async tablesWithRows(): Promise<string[]> {
    const found: string[] = [];
    for (const table of pgRegistryTables) {
      const row = await this.db.query(`SELECT 1 FROM ${table} LIMIT 1`);
      if (row.rowCount) found.push(table);
    }
    return found;
  }

  async begin(marker: MigrationMarker, key: SigningKey | undefined): Promise<void> {
    await this.transaction(async () => {
      // Made here, not at open: a target that is refused is left exactly as it was.
      await this.db.query(`CREATE TABLE IF NOT EXISTS ${markerTable} (
        id integer PRIMARY KEY CHECK (id = 1), source text NOT NULL, key_id text, state text NOT NULL,
        progress jsonb NOT NULL, started_at text NOT NULL, finished_at text)`);
      await this.db.query(
        `INSERT INTO ${markerTable} (id, source, key_id, state, progress, started_at, finished_at)
         VALUES (1, $1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [marker.source, marker.keyId, marker.state, JSON.stringify(marker.progress), marker.startedAt, null],
      );
      if (!key) return;
      await this.db.query(
        "INSERT INTO registry_settings (key, value, created_at) VALUES ('signing_key', $1, $2) ON CONFLICT (key) DO NOTHING",
        [key.pem, marker.startedAt],
      );
      const stored = await this.db.query<{ value: string }>(
        "SELECT value FROM registry_settings WHERE key = 'signing_key'",
      );
      if (stored.rows[0]?.value !== key.pem) throw differentKey(this.description);
    });
  }

  async insertRows(table: TableSpec, rows: readonly SourceRow[], lastRowid: number): Promise<void> {
    await this.transaction(async () => {
      if (rows.length > 0) {
        const kinds = table.columns.map(([, kind]) => kind);
        const values: unknown[] = [];
        const tuples = rows.map((row) => {
          const start = values.length;
          for (const [i, value] of row.values.entries()) values.push(toPg(value, kinds[i] ?? "plain"));
          return `(${row.values.map((_, i) => `$${start + i + 1}`).join(", ")})`;
        });
        await this.db
          .query(
            `INSERT INTO ${table.name} (${table.columns.map(([name]) => name).join(", ")})
             VALUES ${tuples.join(", ")}`,
            values,
          )
          .catch((error: { code?: string }) => {
            // unique_violation, foreign_key_violation: not this migration's rows.
            if (error.code === "23505" || error.code === "23503")
              throw writtenMeanwhile(this.description, table.name, error);
            throw error;
          });
      }
      await this.db.query(
        `UPDATE ${markerTable} SET progress = jsonb_set(progress, ARRAY[$1::text], to_jsonb($2::bigint)) WHERE id = 1`,
        [table.name, lastRowid],
      );
    });
  }

  async replaceSearch(rows: readonly SearchRow[]): Promise<void> {
    await this.transaction(async () => {
      await this.db.query("DELETE FROM package_search");
      for (let start = 0; start < rows.length; start += 500) {
        const values: unknown[] = [];
        const tuples = rows.slice(start, start + 500).map((row) => {
          const keywords = JSON.parse(row.keywords) as string[];
          const n = values.push(
            row.packageId,
            row.name,
            row.description,
            row.keywords,
            row.version,
            searchText(row.name),
            searchText(row.description),
            searchText(keywords.join(" ")),
          );
          const p = (i: number) => `$${n - 8 + i}`;
          return `(${p(1)}::int, ${p(2)}, ${p(3)}, ${p(4)}::jsonb, ${p(5)}, ${searchDocumentSql(p(6), p(7), p(8))})`;
        });
        await this.db.query(
          `INSERT INTO package_search (package_id, name, description, keywords, version, document)
           VALUES ${tuples.join(", ")}`,
          values,
        );
      }
    });
  }

  async continueSequences(tables: readonly TableSpec[]): Promise<void> {
    for (const { name, serial } of tables) {
      if (!serial) continue;
      await this.db.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${serial}) FROM ${name}), 0) + 1, false)`,
        [name, serial],
      );
    }
  }

  async count(table: string): Promise<number> {
    const found = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    return found.rows[0]?.n ?? 0;
  }

  async markDone(at: string): Promise<void> {
    await this.db.query(
      `UPDATE ${markerTable} SET state = 'done', finished_at = coalesce(finished_at, $1) WHERE id = 1`,
      [at],
    );
    // A freshly loaded database has no planner statistics, and its search index a long list of
    // entries not yet merged into it (GIN's pending list, which every search scans), until autovacuum
    // comes round: VACUUM ANALYZE, as after a pg_restore.
    await this.db.query("VACUUM ANALYZE");
  }

  async close(): Promise<void> {
    // Ending the session releases the advisory lock.
    this.db.release(true);
    await this.pool.end().catch(() => {});
  }
}

function toPg(value: unknown, kind: ColumnKind): unknown {
  if (kind === "boolean") return value === 1 || value === true;
  // JSON columns are sent as the text sqlite holds; PostgreSQL parses it into jsonb.
  return value;
}
