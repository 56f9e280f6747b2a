import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { is } from "drizzle-orm";
import { PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { buildRegistry } from "../../registry/app.js";
import { FsBlobStore } from "../../registry/blobs/fs-blob-store.js";
import { openStoreFromUrl } from "../../registry/database-url.js";
import { openDatabase } from "../../registry/db/open.js";
import * as pgSchema from "../../registry/db/pg/schema.js";
import { migrateRegistry } from "../../registry/migrate/migrate.js";
import { migratedTables, unknownTables } from "../../registry/migrate/tables.js";
import { tempDir } from "../helpers/temp.js";
import { call } from "./helpers.js";
import { buildEmbeddedRegistry, contents } from "./migrate-fixture.js";

/** Columns PostgreSQL has that sqlite has not, and why they are not copied. */
const pgOnlyColumns: Record<string, string[]> = {
  // insertion order, sqlite's rowid: made by its sequence as rows are copied in rowid order
  tokens: ["seq"],
};

function sqliteColumns(client: Database.Database, table: string): string[] {
  return (client.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map(
    (c) => c.name,
  );
}

describe("what registry migrate copies", () => {
  it("knows every table of the sqlite schema, and every column of each, so a new one cannot be left behind", async () => {
    const dir = await tempDir();
    const client = openDatabase(join(dir, "registry.sqlite")).$client;
    try {
      const tables = (
        client.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
      ).map((row) => row.name);
      expect(unknownTables(tables)).toEqual([]);
      for (const spec of migratedTables) {
        expect(tables).toContain(spec.name);
        expect(sqliteColumns(client, spec.name).sort(), spec.name).toEqual(
          spec.columns.map(([c]) => c).sort(),
        );
      }
      // The check is not blind: a table added tomorrow is reported.
      client.exec("CREATE TABLE webhooks (id INTEGER PRIMARY KEY, url TEXT)");
      expect(unknownTables([...tables, "webhooks"])).toEqual(["webhooks"]);
    } finally {
      client.close();
    }
  });

  it("maps every column onto PostgreSQL's table of the same name", () => {
    const pgTables = new Map(
      Object.values(pgSchema).flatMap((value) => {
        if (!is(value, PgTable)) return [];
        const config = pgTableConfig(value);
        return [[config.name, config.columns.map((column) => column.name)] as const];
      }),
    );
    for (const spec of migratedTables) {
      const expected = [...spec.columns.map(([c]) => c), ...(pgOnlyColumns[spec.name] ?? [])].sort();
      expect(pgTables.get(spec.name)?.sort(), spec.name).toEqual(expected);
    }
  });

  it("refuses a source with a table it does not know, before writing anything", async () => {
    const root = await tempDir();
    await buildEmbeddedRegistry(join(root, "source"), 3);
    const extra = new Database(join(root, "source", "registry.sqlite"));
    extra.exec("CREATE TABLE webhooks (id INTEGER PRIMARY KEY, url TEXT)");
    extra.close();
    const refused = migrateRegistry({
      from: join(root, "source"),
      toDatabase: `sqlite:${join(root, "moved", "registry.sqlite")}`,
    });
    await expect(refused).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_UNKNOWN_TABLE",
      message: expect.stringContaining("(webhooks)"),
    });
  });

  it("moves a registry into another sqlite file: its folder is then a data dir that serves it, same key, same rows", async () => {
    const root = await tempDir();
    const source = await buildEmbeddedRegistry(join(root, "source"), 40);
    const moved = join(root, "moved");
    const summary = await migrateRegistry({
      from: source.dataDir,
      toDatabase: `sqlite:${join(moved, "registry.sqlite")}`,
    });
    expect(summary.blobCount).toMatchObject({ total: 48, copied: 48 });
    const read = async (file: string) => {
      const store = await openStoreFromUrl({ kind: "sqlite", file });
      try {
        return await contents(store, source.names);
      } finally {
        await store.close();
      }
    };
    expect(await read(join(moved, "registry.sqlite"))).toEqual(
      await read(join(source.dataDir, "registry.sqlite")),
    );
    // Run again: nothing more to do, the same rows, still done.
    const again = await migrateRegistry({
      from: source.dataDir,
      toDatabase: `sqlite:${join(moved, "registry.sqlite")}`,
    });
    expect(again).toMatchObject({ resumed: true, blobCount: { copied: 0, present: 48 } });

    // Another registry cannot be poured into this one.
    const other = await buildEmbeddedRegistry(join(root, "other"), 3);
    await expect(
      migrateRegistry({ from: other.dataDir, toDatabase: `sqlite:${join(moved, "registry.sqlite")}` }),
    ).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_TARGET_NOT_EMPTY",
      message: expect.stringContaining(`holds a migration from another registry (${source.dataDir}`),
    });

    const app = await buildRegistry({ dataDir: moved });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const address = app.server.address();
      if (!address || typeof address === "string") throw new Error("no port");
      const url = `http://127.0.0.1:${address.port}`;
      expect(app.registry.initialAdminToken).toBeUndefined();
      expect(app.registry.sweptBlobs).toEqual([]);
      expect(app.registry.signer.keyId).toBe(summary.signingKey);
      expect((await call(url, "/v1/whoami", { token: source.aliceToken })).json.owner).toBe("alice");
      const tarball = await call(url, "/v1/packages/hook-5/1.0.0/tarball");
      expect(tarball.status).toBe(200);
    } finally {
      await app.close();
    }
  });
  it("an unfinished target cannot be served, and a row written into it meanwhile makes the rerun fail loudly, not mix two registries", async () => {
    const root = await tempDir();
    const source = await buildEmbeddedRegistry(join(root, "source"), 6);
    const target = `sqlite:${join(root, "moved", "registry.sqlite")}`;
    const interrupted = migrateRegistry({
      from: source.dataDir,
      toDatabase: target,
      onProgress: (progress) => {
        if (progress.phase === "blobs") throw new Error("interrupted");
      },
    });
    await expect(interrupted).rejects.toThrow("interrupted");
    // A half-done target is no source.
    await expect(
      migrateRegistry({
        from: join(root, "moved"),
        toDatabase: `sqlite:${join(root, "again", "registry.sqlite")}`,
      }),
    ).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_OPTIONS",
      message: expect.stringContaining("has not finished"),
    });
    // Serving it now is refused: it would sweep the copied tarballs and make an admin of its own.
    await expect(buildRegistry({ dataDir: join(root, "moved") })).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_UNFINISHED",
      message: expect.stringContaining(
        `from ${source.dataDir} that has not finished: run that command again`,
      ),
    });
    // Something else writes to it anyway (by hand): the rerun stops at the collision.
    const byHand = new Database(join(root, "moved", "registry.sqlite"));
    byHand
      .prepare("INSERT INTO owners (id, name, created_at) VALUES (1, 'mallory', '2026-11-02T12:00:00.000Z')")
      .run();
    byHand.close();
    await expect(migrateRegistry({ from: source.dataDir, toDatabase: target })).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_VERIFY",
      message: expect.stringContaining("a row of owners is already in"),
    });
  });

  it("keeps the tarballs in place when --to-blobs is the source's own blobs/, still checking each", async () => {
    const root = await tempDir();
    const source = await buildEmbeddedRegistry(join(root, "source"), 12);
    const summary = await migrateRegistry({
      from: source.dataDir,
      toDatabase: `sqlite:${join(root, "moved", "registry.sqlite")}`,
      toBlobs: `file:${join(source.dataDir, "blobs")}`,
    });
    expect(summary.blobCount).toEqual({ total: 16, copied: 0, present: 16 });
  });
  it("a tarball deleted from the target before the end (as a serve's sweep would) fails the check, naming the version", async () => {
    const root = await tempDir();
    const source = await buildEmbeddedRegistry(join(root, "source"), 4);
    const version = await readVersion(source.dataDir, "hook-2", "1.0.0");
    const blobs = new FsBlobStore(join(root, "moved", "blobs"), join(root, "moved", "tmp"));
    const target = `sqlite:${join(root, "moved", "registry.sqlite")}`;
    const sweptMeanwhile = migrateRegistry({
      from: source.dataDir,
      toDatabase: target,
      onProgress: (progress) => {
        if (progress.phase === "search") rmSync(blobs.fileOf(version.integrity));
      },
    });
    await expect(sweptMeanwhile).rejects.toMatchObject({
      code: "REG_ERR_MIGRATE_VERIFY",
      message: expect.stringContaining("the tarballs of hook-2@1.0.0 are gone from the target"),
    });
    // Run again, it puts the tarball back and finishes.
    const summary = await migrateRegistry({ from: source.dataDir, toDatabase: target });
    expect(summary.blobCount).toMatchObject({ copied: 1, present: 5 });
  });
});

async function readVersion(dataDir: string, name: string, version: string) {
  const store = await openStoreFromUrl({ kind: "sqlite", file: join(dataDir, "registry.sqlite") });
  try {
    const found = await store.getVersion(name, version);
    if (!found) throw new Error(`no ${name}@${version}`);
    return found;
  } finally {
    await store.close();
  }
}
