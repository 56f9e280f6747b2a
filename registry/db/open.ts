import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { RegistryError } from "../errors.js";
import { migrationsFolder } from "./migrations-folder.js";
import * as schema from "./schema.js";

export type RegistryDatabase = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Opens the sqlite file and brings its schema up to date. A database that has a migration this
 * code does not know was written by a newer hookyard: it is refused, never half-understood.
 */
export function openDatabase(file: string): RegistryDatabase {
  let client: Database.Database;
  try {
    client = new Database(file);
  } catch (error) {
    throw new RegistryError(
      "REG_ERR_DATA_DIR",
      `cannot open the registry database ${file}: ${(error as Error).message} (check that it is a sqlite file you may write)`,
      { cause: error },
    );
  }
  try {
    client.pragma("journal_mode = WAL");
    // Every commit is on disk before the publish is answered; reads are unaffected.
    client.pragma("synchronous = FULL");
    client.pragma("foreign_keys = ON");
    client.pragma("busy_timeout = 5000");
    const db = drizzle({ client, schema });
    const folder = migrationsFolder();
    refuseNewerDatabase(client, file, folder);
    migrate(db, { migrationsFolder: folder });
    return db;
  } catch (error) {
    client.close();
    if (error instanceof RegistryError) throw error;
    throw new RegistryError(
      "REG_ERR_DATA_DIR",
      `cannot use the registry database ${file}: ${(error as Error).message} (restore it from a backup, or start with an empty data directory)`,
      { cause: error },
    );
  }
}

function refuseNewerDatabase(client: Database.Database, file: string, folder: string): void {
  const table = client
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!table) return;
  const known = new Set(readMigrationFiles({ migrationsFolder: folder }).map((m) => m.folderMillis));
  const applied = client.prepare("SELECT created_at AS createdAt FROM __drizzle_migrations").all() as Array<{
    createdAt: number | string;
  }>;
  const unknown = applied.filter((row) => !known.has(Number(row.createdAt)));
  if (unknown.length > 0) {
    throw new RegistryError(
      "REG_ERR_DATABASE_TOO_NEW",
      `the database ${file} has ${unknown.length} migration(s) this hookyard does not know: it was written by a newer version (upgrade hookyard, or restore a backup made by this version)`,
    );
  }
}
