import { execFile } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { promisify } from "node:util";
import pg from "pg";
import { BenchError } from "../../errors.js";
import type { Cleanup } from "../cleanup.js";
import { type PostgresCluster, startCluster } from "./postgres-cluster.js";

const run = promisify(execFile);

/**
 * The bench's PostgreSQL: one throwaway cluster, stopped with the run's cleanup (after the
 * registry processes on it, which are added later and so stop first).
 */
export async function startBenchCluster(cleanup: Cleanup): Promise<PostgresCluster> {
  let cluster: PostgresCluster;
  try {
    // Room for every registry process's pool (10 each) and the seeding's.
    cluster = await startCluster({ settings: { max_connections: 100, shared_buffers: "256MB" } });
  } catch (error) {
    throw new BenchError(
      "BENCH_ERR_POSTGRES",
      `the bench's PostgreSQL cluster did not start: ${(error as Error).message}`,
      { cause: error },
    );
  }
  cleanup.add({ label: "PostgreSQL", stop: () => cluster.stop(), stopSync: () => cluster.stopSync() });
  return cluster;
}

/**
 * A seeded registry's copy for another column, made in a second or two rather than seeded again:
 * the database as a copy of the seeded one (CREATE DATABASE … TEMPLATE, while nobody is connected
 * to it) and, for a file blob store, a data dir whose blob files are hard links to the seeded ones
 * (blobs are written once, under a new name, and never changed in place, so sharing the inode is
 * safe; each copy's new tarballs are its own).
 */
export async function copySeeded(
  cluster: PostgresCluster,
  seeded: { database: string; dataDir?: string },
  dataDir: string,
): Promise<string> {
  const database = await cluster.createDatabase(seeded.database);
  if (seeded.dataDir) {
    await run("cp", ["-al", seeded.dataDir, dataDir]);
  } else {
    await mkdir(dataDir, { recursive: true });
  }
  return database;
}

/** VACUUM ANALYZE a database, closing the connection again (a template must have none). */
export async function vacuumAnalyze(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    await client.query("VACUUM ANALYZE");
  } finally {
    await client.end();
  }
}
