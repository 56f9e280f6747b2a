import { resolve } from "node:path";
import { describeDatabase } from "./db/describe-database.js";
import { openDatabase } from "./db/open.js";
import { openPgPool } from "./db/pg/open.js";
import { PgStore } from "./db/pg/pg-store.js";
import { SqliteStore } from "./db/sqlite-store.js";
import { RegistryError } from "./errors.js";
import { refuseUnfinishedPg, refuseUnfinishedSqlite } from "./migrate/unfinished.js";
import type { RegistryStore } from "./store.js";

export { describeDatabase };

/** Where the metadata lives: `sqlite:<path>` or `postgres://…` (`postgresql://…`). */
export type DatabaseLocation = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** Reads a --database / HOOKYARD_REGISTRY_DATABASE value; REG_ERR_DATABASE_URL says what is wrong with a bad one. */
export function parseDatabaseUrl(text: string): DatabaseLocation {
  const refuse = (problem: string) =>
    new RegistryError(
      "REG_ERR_DATABASE_URL",
      `the database URL ${JSON.stringify(describeDatabase(text))} ${problem} (pass sqlite:<path> or postgres://user:password@host:port/database to --database or HOOKYARD_REGISTRY_DATABASE)`,
    );
  if (text.startsWith("sqlite:")) {
    const file = text.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (file === "") throw refuse("names no file");
    return { kind: "sqlite", file: resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(text)) {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw refuse("is not a valid URL");
    }
    if (parsed.hostname === "" && !parsed.searchParams.has("host")) throw refuse("names no host");
    if (parsed.pathname.length <= 1) throw refuse("names no database");
    return { kind: "postgres", url: text };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1];
  throw refuse(scheme ? `has a scheme hookyard does not know (${scheme}:)` : "has no scheme");
}

/**
 * The metadata store at a database URL, migrated and ready; for `registry serve --database` and
 * for tools that open a registry's database directly (a migration between stores). Errors are
 * RegistryErrors with a code: a bad URL, an unreachable server, refused credentials, a database a
 * `registry migrate` has not finished filling (REG_ERR_MIGRATE_UNFINISHED).
 */
export async function openStoreFromUrl(url: string | DatabaseLocation): Promise<RegistryStore> {
  const location = typeof url === "string" ? parseDatabaseUrl(url) : url;
  if (location.kind === "sqlite") {
    const db = openDatabase(location.file);
    try {
      refuseUnfinishedSqlite(db.$client, location.file);
    } catch (error) {
      db.$client.close();
      throw error;
    }
    return new SqliteStore(db);
  }
  const pool = await openPgPool(location.url);
  const store = new PgStore(pool, location.url);
  try {
    await refuseUnfinishedPg(pool, describeDatabase(location.url));
    await store.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
