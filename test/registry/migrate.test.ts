import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildRegistry } from "../../registry/app.js";
import { FsBlobStore } from "../../registry/blobs/fs-blob-store.js";
import { openStoreFromUrl } from "../../registry/database-url.js";
import { cli } from "../cli/commands/packages/install/fixtures.js";
import { hookyard, repoRoot } from "../helpers/cli.js";
import { describePostgres, fileCluster } from "../helpers/postgres.js";
import { fileS3, s3Env } from "../helpers/s3.js";
import { tempDir } from "../helpers/temp.js";
import { processWaitMs } from "../helpers/timeouts.js";
import { call, hookPackage } from "./helpers.js";
import { buildEmbeddedRegistry, contents, type EmbeddedRegistry } from "./migrate-fixture.js";
import { builtModule, startServerProcess } from "./server-process.js";

/**
 * `hookyard registry migrate` from an embedded registry of 1,000 packages to a real PostgreSQL and
 * file blobs, through the real bin: everything is there afterwards and a `registry serve` on the
 * target serves it (old tokens, signatures, installs); a migration SIGKILLed twice finishes when
 * run again; a target that holds anything, a served source and a corrupt tarball are refused.
 */

const cluster = fileCluster();
const s3 = fileS3();
let workRoot: string;
let source: EmbeddedRegistry;

beforeAll(async () => {
  workRoot = await mkdtemp(join(tmpdir(), "hookyard-migrate-"));
  source = await buildEmbeddedRegistry(join(workRoot, "source"), 1_000);
});

afterAll(async () => {
  if (workRoot) await rm(workRoot, { recursive: true, force: true });
});

const migrateArgs = (from: string, database: string, blobs: string) => [
  "registry",
  "migrate",
  "--from",
  from,
  "--to-database",
  database,
  "--to-blobs",
  `file:${blobs}`,
];

/** One line on stderr, with the code, no stack: how a refusal must look. */
function refusal(result: { code: number | null; stderr: string }): string {
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

async function sourceContents(dataDir: string) {
  const store = await openStoreFromUrl({ kind: "sqlite", file: join(dataDir, "registry.sqlite") });
  try {
    return await contents(store, source.names);
  } finally {
    await store.close();
  }
}

async function targetContents(database: string) {
  const store = await openStoreFromUrl(database);
  try {
    return await contents(store, source.names);
  } finally {
    await store.close();
  }
}

async function sql<R>(database: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

async function marker(database: string): Promise<{ state: string } | undefined> {
  const [exists] = await sql<{ t: string | null }>(database, "SELECT to_regclass('registry_migration') AS t");
  if (!exists?.t) return undefined;
  return (await sql<{ state: string }>(database, "SELECT state FROM registry_migration"))[0];
}

const tables = [
  "owners",
  "tokens",
  "packages",
  "package_owners",
  "scope_owners",
  "versions",
  "yanks",
  "deprecations",
  "advisories",
  "download_counts",
  "audit_log",
  "package_search",
  "registry_settings",
];

async function counts(database: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const table of tables)
    found[table] =
      (await sql<{ n: number }>(database, `SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;
  return found;
}

describePostgres("hookyard registry migrate", () => {
  it("moves 1,000 packages to PostgreSQL and file blobs: all there, old tokens work, installs verify", async () => {
    const database = await (await cluster()).createDatabase();
    const target = join(workRoot, "target-1");
    const result = await hookyard(
      [...migrateArgs(source.dataDir, database, join(target, "blobs")), "--json"],
      {
        cwd: workRoot,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.resumed).toBe(false);
    expect(summary.database).not.toContain("pg-secret");
    const rows = Object.fromEntries(
      summary.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]),
    );
    expect(rows).toMatchObject({ packages: 1_000, versions: 1_200 });
    expect(summary.blobCount).toEqual({ total: 1_200, copied: 1_200, present: 0 });
    expect(result.stderr).toMatch(/^tarballs 1200\/1200$/m);
    expect(result.stderr).toMatch(/^table 6\/11 versions: 1200\/1200 rows$/m);

    expect(await targetContents(database)).toEqual(await sourceContents(source.dataDir));
    expect(await marker(database)).toEqual({ state: "done" });
    const downloads = await sql<{ n: number }>(database, "SELECT sum(downloads)::int AS n FROM packages");
    expect(downloads[0]?.n).toBeGreaterThan(1_000);

    const served = await startServerProcess(
      ["registry", "serve", "--data", target, "--database", database, "--port", "0", "--log-level", "silent"],
      { cwd: workRoot },
    );
    // Not an empty registry: no new admin token, and the start-up sweep found no orphan to delete.
    expect(served.adminToken).toBeUndefined();
    expect((await new FsBlobStore(join(target, "blobs"), join(target, "tmp")).list()).length).toBe(1_200);
    const whoami = await call(served.url, "/v1/whoami", { token: source.aliceToken });
    expect(whoami.status).toBe(200);
    expect(whoami.json.owner).toBe("alice");
    const revoked = await call(served.url, "/v1/whoami", { token: source.revokedToken });
    expect(revoked.json.error.code).toBe("REG_ERR_TOKEN_REVOKED");
    expect((await call(served.url, "/v1/keys")).json.keys[0].keyId).toBe(summary.signingKey);

    const ws = await tempDir();
    const installed = await cli(ws, "install", "hook-11", "--registry", served.url, "--yes");
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("installed hook-11@1.0.0");
    const lock = JSON.parse(await readFile(join(ws, "hookyard.lock"), "utf8"));
    expect(JSON.stringify(lock)).toContain(summary.signingKey);

    // Ids continue past the copied ones: a new version and a new token are new rows.
    const tarball = await hookPackage({ name: "hook-3", version: "1.0.1" });
    const published = await call(served.url, "/v1/packages/hook-3/1.0.1", {
      method: "PUT",
      token: source.aliceToken,
      body: tarball,
    });
    expect(published.status, published.bytes.toString()).toBe(201);
    const made = await call(served.url, "/v1/tokens", { method: "POST", token: source.aliceToken, json: {} });
    expect(made.status, made.bytes.toString()).toBe(201);
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  });

  it("moves them to PostgreSQL and an S3 bucket: a registry serving both has every tarball, and installs verify", async () => {
    const database = await (await cluster()).createDatabase();
    const bucket = await (await s3()).createBucket("tarballs/");
    const result = await hookyard(
      [
        "registry",
        "migrate",
        "--from",
        source.dataDir,
        "--to-database",
        database,
        "--to-blobs",
        bucket,
        "--json",
      ],
      { cwd: workRoot, env: s3Env },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.blobCount).toEqual({ total: 1_200, copied: 1_200, present: 0 });
    expect(await targetContents(database)).toEqual(await sourceContents(source.dataDir));
    expect(await marker(database)).toEqual({ state: "done" });

    const served = await startServerProcess(
      [
        "registry",
        "serve",
        "--data",
        join(workRoot, "s3-serve"),
        "--database",
        database,
        "--blobs",
        bucket,
        "--port",
        "0",
        "--log-level",
        "silent",
      ],
      { cwd: workRoot, env: s3Env },
    );
    expect(served.adminToken).toBeUndefined();
    const ws = await tempDir();
    const installed = await cli(ws, "install", "hook-42", "--registry", served.url, "--yes");
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain("installed hook-42@1.0.0");
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  });

  it("SIGKILLed while copying tarballs, and again while copying versions, the rerun finishes with every row", async () => {
    const database = await (await cluster()).createDatabase();
    const blobs = join(workRoot, "target-2", "blobs");
    // 1: the bin, killed once it reports tarballs.
    const killed = await killedMidway(migrateArgs(source.dataDir, database, blobs), /^tarballs 100\//m);
    expect(killed).toBe("SIGKILL");
    expect(await marker(database)).toEqual({ state: "copying" });
    expect((await counts(database)).versions).toBe(0);
    // 2: a process that kills itself the moment the first batch of versions is committed.
    const script = `
      const { migrateRegistry } = await import(${JSON.stringify(builtModule("registry/migrate/migrate.js"))});
      await migrateRegistry({
        from: ${JSON.stringify(source.dataDir)}, toDatabase: ${JSON.stringify(database)}, toBlobs: ${JSON.stringify(`file:${blobs}`)},
        onProgress: (p) => { if (p.phase === "table" && p.table === "versions") process.kill(process.pid, "SIGKILL"); },
      });`;
    expect(await nodeProcess(["--input-type=module", "-e", script])).toBe("SIGKILL");
    const partial = await counts(database);
    expect(partial.versions).toBe(500);
    expect(partial.yanks).toBe(0);
    expect(await marker(database)).toEqual({ state: "copying" });

    const early = refusal(
      await hookyard(
        ["registry", "serve", "--data", join(workRoot, "target-2"), "--database", database, "--port", "0"],
        {
          cwd: workRoot,
        },
      ),
    );
    expect(early).toMatch(
      /that has not finished: run that command again to finish it, then serve \(REG_ERR_MIGRATE_UNFINISHED\)$/,
    );
    expect(await counts(database)).toEqual(partial);

    const rerun = await hookyard([...migrateArgs(source.dataDir, database, blobs), "--json"], {
      cwd: workRoot,
    });
    expect(rerun.code, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout);
    expect(summary.resumed).toBe(true);
    expect(summary.blobCount.present).toBeGreaterThanOrEqual(100);
    expect(summary.blobCount.copied + summary.blobCount.present).toBe(1_200);
    expect(await targetContents(database)).toEqual(await sourceContents(source.dataDir));
    expect(await marker(database)).toEqual({ state: "done" });
  });

  it("refuses a target database that holds a registry, and a blob folder with another registry's tarballs, changing neither", async () => {
    const database = await (await cluster()).createDatabase();
    const other = await buildRegistry({ dataDir: await tempDir(), database });
    await other.close();
    const before = await counts(database);
    const blobs = join(workRoot, "target-3", "blobs");
    const line = refusal(await hookyard(migrateArgs(source.dataDir, database, blobs), { cwd: workRoot }));
    expect(line).toMatch(
      /^hookyard: CLI_ERR_REGISTRY: .* already holds a registry \(rows in owners, tokens, audit_log, registry_settings\): migrate into an empty database.*\(REG_ERR_MIGRATE_TARGET_NOT_EMPTY\)$/,
    );
    expect(line).not.toContain("pg-secret");
    expect(await counts(database)).toEqual(before);
    expect(await marker(database)).toBeUndefined();

    const empty = await (await cluster()).createDatabase();
    const stranger = await hookPackage({ name: "stranger" });
    await mkdir(join(workRoot, "target-3", "tmp"), { recursive: true });
    const foreign = new FsBlobStore(blobs, join(workRoot, "target-3", "tmp"));
    const { computeIntegrity } = await import("../../package/integrity.js");
    await foreign.put(computeIntegrity(stranger), stranger);
    const blobLine = refusal(await hookyard(migrateArgs(source.dataDir, empty, blobs), { cwd: workRoot }));
    expect(blobLine).toMatch(
      /holds 1 tarball\(s\) the source does not have .*\(REG_ERR_MIGRATE_TARGET_NOT_EMPTY\)$/,
    );
    expect(await marker(empty)).toBeUndefined();
    expect((await counts(empty)).owners).toBe(0);
  });

  it("refuses a second migration into a database another one is writing (REG_ERR_MIGRATE_TARGET_BUSY)", async () => {
    const database = await (await cluster()).createDatabase();
    const holder = new pg.Client({ connectionString: database });
    await holder.connect();
    try {
      // What a running migration holds for as long as it runs.
      await holder.query("SELECT pg_advisory_lock($1)", [0x68796d67]);
      const { migrateRegistry } = await import("../../registry/migrate/migrate.js");
      await expect(
        migrateRegistry({
          from: source.dataDir,
          toDatabase: database,
          toBlobs: `file:${join(workRoot, "target-6")}`,
        }),
      ).rejects.toMatchObject({ code: "REG_ERR_MIGRATE_TARGET_BUSY" });
    } finally {
      await holder.end();
    }
    expect(await marker(database)).toBeUndefined();
  });

  it("refuses a source that a registry serves (REG_ERR_DATA_DIR_LOCKED)", async () => {
    const database = await (await cluster()).createDatabase();
    const serving = await buildRegistry({ dataDir: source.dataDir });
    try {
      const line = refusal(
        await hookyard(migrateArgs(source.dataDir, database, join(workRoot, "target-4", "blobs")), {
          cwd: workRoot,
        }),
      );
      expect(line).toMatch(/already serves .*\/source .*\(REG_ERR_DATA_DIR_LOCKED\)$/);
    } finally {
      await serving.close();
    }
    expect(await marker(database)).toBeUndefined();
  });

  it("stops at a corrupt source tarball, naming the version, and marks nothing migrated", async () => {
    const copy = join(workRoot, "corrupt-source");
    await cp(source.dataDir, copy, { recursive: true });
    const store = await openStoreFromUrl({ kind: "sqlite", file: join(copy, "registry.sqlite") });
    const version = await store.getVersion("hook-20", "1.1.0");
    await store.close();
    if (!version) throw new Error("no hook-20@1.1.0");
    const file = new FsBlobStore(join(copy, "blobs"), join(copy, "tmp")).fileOf(version.integrity);
    const bytes = await readFile(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 0xff;
    await writeFile(file, bytes);

    const database = await (await cluster()).createDatabase();
    const blobs = join(workRoot, "target-5", "blobs");
    for (let run = 0; run < 2; run++) {
      const line = refusal(await hookyard(migrateArgs(copy, database, blobs), { cwd: workRoot }));
      expect(line).toMatch(
        /^hookyard: CLI_ERR_REGISTRY: the source's tarball of hook-20@1\.1\.0 does not match its integrity .*restore it from a backup.*\(REG_ERR_MIGRATE_BLOB_CORRUPT\)$/,
      );
      expect(await marker(database)).toEqual({ state: "copying" });
      expect((await counts(database)).versions).toBe(0);
    }
  });
});

/** The bin, SIGKILLed as soon as its stderr matches `when`; resolves with how it ended. */
function killedMidway(args: string[], when: RegExp): Promise<number | NodeJS.Signals | null> {
  return nodeProcess([join(repoRoot, "bin", "hookyard.js"), ...args], when);
}

function nodeProcess(args: string[], killWhen?: RegExp): Promise<number | NodeJS.Signals | null> {
  const child = spawn(process.execPath, args, { cwd: workRoot, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), processWaitMs);
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    if (killWhen?.test(stderr)) child.kill("SIGKILL");
  });
  return new Promise((done) =>
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      done(code ?? signal);
    }),
  );
}
