import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import { lockEmbedded } from "../data/serve-lock.js";
import { openDatabase } from "../db/open.js";
import { writePrivate } from "../signing.js";
import type { SearchRow, SigningKey, SourceRow } from "./source.js";
import type { TableSpec } from "./tables.js";
import { type MigrationMarker, type MigrationTarget, markerTable, registryTables } from "./target.js";
import { differentKey, writtenMeanwhile } from "./target-errors.js";

/**
 * An sqlite file as a migration's target. A registry on it (`registry serve --data <dir>
 * --database sqlite:<file>`) reads its signing key from its data dir, so the key is written to
 * `keys/ed25519.pem` beside the file: serve it with the file's folder as --data. The folder is held
 * with the serve lock while the migration runs.
 */
export class SqliteMigrationTarget implements MigrationTarget {
  private constructor(
    private readonly client: Database.Database,
    private readonly keyFile: string,
    readonly description: string,
    private readonly unlock: () => Promise<void>,
  ) {}

  static async open(file: string): Promise<SqliteMigrationTarget> {
    const root = dirname(file);
    await mkdir(root, { recursive: true });
    const unlock = await lockEmbedded(root, { kind: "sqlite", file });
    try {
      const client = openDatabase(file).$client;
      return new SqliteMigrationTarget(client, join(root, "keys", "ed25519.pem"), file, unlock);
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  async readMarker(): Promise<MigrationMarker | undefined> {
    const exists = this.client
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(markerTable);
    if (!exists) return undefined;
    const row = this.client
      .prepare(
        `SELECT source, key_id AS keyId, state, progress, started_at AS startedAt, finished_at AS finishedAt
         FROM ${markerTable} WHERE id = 1`,
      )
      .get() as (Omit<MigrationMarker, "progress"> & { progress: string }) | undefined;
    return row && { ...row, progress: JSON.parse(row.progress) as Record<string, number> };
  }

  async tablesWithRows(): Promise<string[]> {
    const found = registryTables.filter((table) =>
      this.client.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get(),
    );
    const key = await readFile(this.keyFile, "utf8").catch(() => undefined);
    return key === undefined ? found : [...found, "keys/ed25519.pem"];
  }

  async begin(marker: MigrationMarker, key: SigningKey | undefined): Promise<void> {
    if (key) {
      const stored = await readFile(this.keyFile, "utf8").catch(() => undefined);
      if (stored === undefined) {
        await mkdir(dirname(this.keyFile), { recursive: true });
        await writePrivate(this.keyFile, key.pem);
      } else if (stored !== key.pem) throw differentKey(this.description);
    }
    // Made here, not at open: a target that is refused is left exactly as it was.
    this.client.exec(`CREATE TABLE IF NOT EXISTS ${markerTable} (
      id INTEGER PRIMARY KEY CHECK (id = 1), source TEXT NOT NULL, key_id TEXT, state TEXT NOT NULL,
      progress TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT)`);
    this.client
      .prepare(
        `INSERT INTO ${markerTable} (id, source, key_id, state, progress, started_at) VALUES (1, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING`,
      )
      .run(marker.source, marker.keyId, marker.state, JSON.stringify(marker.progress), marker.startedAt);
  }

  async insertRows(table: TableSpec, rows: readonly SourceRow[], lastRowid: number): Promise<void> {
    const names = table.columns.map(([name]) => `"${name}"`);
    const insert = this.client.prepare(
      `INSERT INTO "${table.name}" (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`,
    );
    const progress = this.client.prepare(
      `UPDATE ${markerTable} SET progress = json_set(progress, '$.' || ?, ?) WHERE id = 1`,
    );
    try {
      this.client.transaction(() => {
        // Same engine, same types: the values go in exactly as they were read.
        for (const row of rows) insert.run(...row.values);
        progress.run(table.name, lastRowid);
      })();
    } catch (error) {
      if (String((error as { code?: string }).code).startsWith("SQLITE_CONSTRAINT"))
        throw writtenMeanwhile(this.description, table.name, error);
      throw error;
    }
  }

  async replaceSearch(rows: readonly SearchRow[]): Promise<void> {
    const insert = this.client.prepare(
      "INSERT INTO package_search (rowid, name, description, keywords, version) VALUES (?, ?, ?, ?, ?)",
    );
    this.client.transaction(() => {
      this.client.prepare("DELETE FROM package_search").run();
      for (const row of rows) insert.run(row.packageId, row.name, row.description, row.keywords, row.version);
    })();
  }

  async continueSequences(): Promise<void> {
    // sqlite's AUTOINCREMENT continues past the largest id inserted, copied ids included.
  }

  async count(table: string): Promise<number> {
    return (this.client.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  }

  async markDone(at: string): Promise<void> {
    this.client
      .prepare(
        `UPDATE ${markerTable} SET state = 'done', finished_at = coalesce(finished_at, ?) WHERE id = 1`,
      )
      .run(at);
  }

  async close(): Promise<void> {
    try {
      this.client.close();
    } finally {
      await this.unlock();
    }
  }
}
