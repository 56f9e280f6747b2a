import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { RegistryError } from "../../errors.js";
import { describeDatabase } from "../describe-database.js";
import { migrationsFolder } from "../migrations-folder.js";
import * as schema from "./schema.js";

/** Held while migrating, so that processes starting together apply each migration once. */
const migrationLockKey = 0x686f6f6b; // "hook"

/** How long a connection attempt may take before the server counts as unreachable. */
const connectTimeoutMs = 10_000;

/**
 * A pool on the database at `url` whose schema is up to date. The first connection is made here,
 * so an unreachable server or refused credentials fail at start with a code, never later. A
 * database with a migration this code does not know was written by a newer hookyard: refused.
 */
export async function openPgPool(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: connectTimeoutMs });
  // An idle connection the server dropped must not crash the process: the pool makes a new one.
  pool.on("error", () => {});
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectionError(url, error);
  }
  try {
    await client.query("SELECT pg_advisory_lock($1)", [migrationLockKey]);
    try {
      const folder = migrationsFolder("migrations-pg");
      await refuseNewerDatabase(client, url, folder);
      await migrate(drizzle({ client, schema }), { migrationsFolder: folder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [migrationLockKey]);
    }
  } catch (error) {
    client.release(true);
    await pool.end().catch(() => {});
    if (error instanceof RegistryError) throw error;
    throw new RegistryError(
      "REG_ERR_DATA_DIR",
      `cannot bring the registry database ${describeDatabase(url)} up to date: ${(error as Error).message} (check that the user may create tables in it)`,
      { cause: error },
    );
  }
  client.release();
  return pool;
}

async function refuseNewerDatabase(client: pg.PoolClient, url: string, folder: string): Promise<void> {
  const exists = await client.query("SELECT to_regclass('drizzle.__drizzle_migrations') AS t");
  if (!exists.rows[0]?.t) return;
  const known = new Set(readMigrationFiles({ migrationsFolder: folder }).map((m) => m.folderMillis));
  const applied = await client.query<{ created_at: string }>(
    "SELECT created_at FROM drizzle.__drizzle_migrations",
  );
  const unknown = applied.rows.filter((row) => !known.has(Number(row.created_at)));
  if (unknown.length > 0) {
    throw new RegistryError(
      "REG_ERR_DATABASE_TOO_NEW",
      `the database ${describeDatabase(url)} has ${unknown.length} migration(s) this hookyard does not know: it was written by a newer version (upgrade hookyard, or restore a backup made by this version)`,
    );
  }
}

/** What failed while connecting, as the operator can act on it. */
export function connectionError(url: string, error: unknown): RegistryError {
  const { code, message } = error as { code?: string; message?: string };
  const where = describeDatabase(url);
  if (code === "28P01" || code === "28000") {
    return new RegistryError(
      "REG_ERR_DATABASE_AUTH",
      `the PostgreSQL server at ${where} refused the credentials: ${message} (check the user and password in the URL)`,
      { cause: error },
    );
  }
  if (code === "3D000") {
    return new RegistryError(
      "REG_ERR_DATABASE_UNREACHABLE",
      `the PostgreSQL server at ${where} has no such database: ${message} (create it with \`createdb\`, or fix the name in the URL)`,
      { cause: error },
    );
  }
  return new RegistryError(
    "REG_ERR_DATABASE_UNREACHABLE",
    `cannot reach the PostgreSQL server at ${where}: ${message || code || "connection failed"} (check that it runs, and the host and port in the URL)`,
    { cause: error },
  );
}
