import { createPrivateKey, createPublicKey } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { keyIdOf } from "../../package/signature.js";
import type { BlobStore } from "../blobs/blob-store.js";
import { FsBlobStore } from "../blobs/fs-blob-store.js";
import { dataDirLayout } from "../data/data-dir.js";
import { lockDataDir } from "../data/serve-lock.js";
import { openDatabase, type RegistryDatabase } from "../db/open.js";
import { RegistryError } from "../errors.js";
import type { TableSpec } from "./tables.js";
import { markerTable } from "./target.js";

/** One row of a table, its values in the spec's column order, and where it is (sqlite's rowid). */
export interface SourceRow {
  rowid: number;
  values: unknown[];
}

/** A package's row in the search index, as the sqlite store wrote it (keywords as JSON text). */
export interface SearchRow {
  packageId: number;
  name: string;
  description: string;
  keywords: string;
  version: string;
}

export interface SigningKey {
  pem: string;
  keyId: string;
}

/**
 * An embedded registry's data dir, held with the serve lock for as long as the migration reads it,
 * so that no `registry serve` writes to it meanwhile (one that serves it now: REG_ERR_DATA_DIR_LOCKED).
 */
export class MigrationSource {
  private constructor(
    readonly root: string,
    private readonly db: RegistryDatabase,
    readonly blobs: BlobStore,
    readonly signingKey: SigningKey | undefined,
    private readonly unlock: () => Promise<void>,
  ) {}

  static async open(dataDir: string): Promise<MigrationSource> {
    const layout = dataDirLayout(dataDir);
    if (!existsSync(layout.database)) {
      throw new RegistryError(
        "REG_ERR_MIGRATE_OPTIONS",
        `there is no embedded registry in ${layout.root} (no registry.sqlite): pass the --data directory of the registry to move to --from`,
      );
    }
    const unlock = await lockDataDir(layout.root);
    try {
      const signingKey = await readSigningKey(layout.signingKey);
      const db = openDatabase(layout.database);
      // Read only: tmp/ is never written, since nothing is put into the source.
      return new MigrationSource(
        layout.root,
        db,
        new FsBlobStore(layout.blobs, layout.tmp),
        signingKey,
        unlock,
      );
    } catch (error) {
      await unlock();
      throw error;
    }
  }

  private get client() {
    return this.db.$client;
  }

  tables(): string[] {
    const rows = this.client
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all() as Array<{ name: string }>;
    return rows.map((row) => row.name);
  }

  /** The source named by an unfinished migration into this data dir (an sqlite target), if any. */
  unfinishedMigration(): string | undefined {
    if (!this.tables().includes(markerTable)) return undefined;
    const row = this.client.prepare(`SELECT source, state FROM ${markerTable} WHERE id = 1`).get() as
      | { source: string; state: string }
      | undefined;
    return row && row.state !== "done" ? row.source : undefined;
  }

  count(table: string): number {
    return (this.client.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
  }

  /** Up to `limit` rows after `afterRowid`, in rowid order (the order they were written). */
  rows(table: TableSpec, afterRowid: number, limit: number): SourceRow[] {
    const columns = table.columns.map(([name]) => `"${name}"`).join(", ");
    const rows = this.client
      .prepare(
        `SELECT rowid AS __rowid, ${columns} FROM "${table.name}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      )
      .raw()
      .all(afterRowid, limit) as unknown[][];
    return rows.map(([rowid, ...values]) => ({ rowid: rowid as number, values }));
  }

  searchRows(): SearchRow[] {
    return this.client
      .prepare(
        "SELECT rowid AS packageId, name, description, keywords, version FROM package_search ORDER BY rowid",
      )
      .all() as SearchRow[];
  }

  /** Every integrity a version names, with the `name@version`s that name it. */
  integrities(): Map<string, string[]> {
    const rows = this.client
      .prepare(
        "SELECT v.integrity, p.name || '@' || v.version AS label FROM versions v JOIN packages p ON p.id = v.package_id ORDER BY v.id",
      )
      .all() as Array<{ integrity: string; label: string }>;
    const named = new Map<string, string[]>();
    for (const { integrity, label } of rows) named.set(integrity, [...(named.get(integrity) ?? []), label]);
    return named;
  }

  async close(): Promise<void> {
    try {
      this.client.close();
    } finally {
      await this.unlock();
    }
  }
}

async function readSigningKey(file: string): Promise<SigningKey | undefined> {
  let pem: string;
  try {
    pem = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw signingKeyError(file, error);
  }
  try {
    return { pem, keyId: keyIdOf(createPublicKey(createPrivateKey(pem))) };
  } catch (error) {
    throw signingKeyError(file, error);
  }
}

function signingKeyError(file: string, cause: unknown): RegistryError {
  return new RegistryError(
    "REG_ERR_SIGNING_KEY",
    `the source's signing key ${file} cannot be read: ${(cause as Error).message} (restore it from a backup before migrating: signatures are checked against it)`,
    { cause },
  );
}
