import type Database from "better-sqlite3";
import type pg from "pg";
import { RegistryError } from "../errors.js";
import { markerTable } from "./target.js";

/**
 * Refuses to open a store that a `registry migrate` is still filling: served half-copied, it would
 * show a partial registry, make an admin token of its own, and sweep the tarballs whose rows have
 * not arrived yet as orphans.
 */
export function refuseUnfinishedSqlite(client: Database.Database, where: string): void {
  const exists = client
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get(markerTable);
  if (!exists) return;
  const row = client.prepare(`SELECT source, state FROM ${markerTable} WHERE id = 1`).get() as
    | { source: string; state: string }
    | undefined;
  if (row && row.state !== "done") throw unfinished(where, row.source);
}

export async function refuseUnfinishedPg(pool: pg.Pool, where: string): Promise<void> {
  const exists = await pool.query("SELECT to_regclass($1) AS t", [markerTable]);
  if (!exists.rows[0]?.t) return;
  const found = await pool.query<{ source: string; state: string }>(
    `SELECT source, state FROM ${markerTable} WHERE id = 1`,
  );
  const row = found.rows[0];
  if (row && row.state !== "done") throw unfinished(where, row.source);
}

function unfinished(where: string, source: string): RegistryError {
  return new RegistryError(
    "REG_ERR_MIGRATE_UNFINISHED",
    `${where} is the target of a \`hookyard registry migrate\` from ${source} that has not finished: run that command again to finish it, then serve`,
  );
}
