import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe } from "vitest";

const run = promisify(execFile);

/**
 * The registry's PostgreSQL tests need Debian's server (`apt-get install -y postgresql`; .ci/run
 * installs it). Without it they fail, saying so, never skip quietly. On a machine of your own you
 * may opt out with HOOKYARD_POSTGRES_TESTS=skip: the PostgreSQL runs are then skipped, with a
 * warning. CI (CI set) refuses the opt-out: there they always run.
 */
export const postgresTestsSkipped = optedOut();

function optedOut(): boolean {
  const value = process.env.HOOKYARD_POSTGRES_TESTS;
  if (value === undefined || value === "") return false;
  if (value !== "skip") throw new Error(`HOOKYARD_POSTGRES_TESTS=${value}: the only value is skip`);
  if (process.env.CI) {
    throw new Error(
      "HOOKYARD_POSTGRES_TESTS=skip is for local runs: CI runs the PostgreSQL tests (unset it)",
    );
  }
  process.emitWarning("HOOKYARD_POSTGRES_TESTS=skip: the registry's PostgreSQL tests are skipped");
  return true;
}

/** `describe` for a suite that needs PostgreSQL: skipped only by the local opt-out above. */
export const describePostgres: typeof describe.skip = describe.skipIf(postgresTestsSkipped);

/** The password of the cluster's `postgres` user: connections over TCP need it (scram-sha-256). */
export const clusterPassword = "pg-secret-for-tests";

/** A throwaway PostgreSQL server for one test file. */
export interface TestCluster {
  port: number;
  /** A URL for `database` (default: postgres) with the right password. */
  url(database?: string): string;
  /** A fresh, empty database, for one registry. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

function serverBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb")))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new Error(
      "PostgreSQL is not installed, and the registry's PostgreSQL tests need its server: run `apt-get install -y postgresql` (Debian's package; .ci/run installs it in CI), or opt out on your own machine with HOOKYARD_POSTGRES_TESTS=skip",
    );
  }
  return join(root, newest, "bin");
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * initdb and pg_ctl start in a temp dir, as the `postgres` user (the server refuses root), on a
 * free loopback port with its socket in the temp dir; fsync off, since nothing here must survive.
 */
export async function startCluster(): Promise<TestCluster> {
  const bin = serverBin();
  const dir = await mkdtemp(join(tmpdir(), "hookyard-pg-"));
  const asPostgres = (command: string, args: string[]) =>
    run("runuser", ["-u", "postgres", "--", join(bin, command), ...args], { timeout: 60_000 });
  try {
    await chown(dir, ...(await postgresIds()));
    const pwfile = join(dir, "pw");
    await writeFile(pwfile, clusterPassword);
    await chown(pwfile, ...(await postgresIds()));
    const data = join(dir, "data");
    await asPostgres("initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      `--pwfile=${pwfile}`,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "--locale=C",
      "-E",
      "UTF8",
      "--no-sync",
    ]);
    const port = await freePort();
    await asPostgres("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-t",
      "60",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
      "start",
    ]);
    let made = 0;
    const url = (database = "postgres") =>
      `postgres://postgres:${clusterPassword}@127.0.0.1:${port}/${database}`;
    return {
      port,
      url,
      async createDatabase() {
        const name = `registry_${++made}`;
        const client = new pg.Client({ connectionString: url() });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name} STRATEGY FILE_COPY`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      async stop() {
        await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  return [Number(stdout.trim()), Number(group.trim())];
}

/** One cluster for the calling test file, started at first use and stopped after the file. */
export function fileCluster(): () => Promise<TestCluster> {
  let started: Promise<TestCluster> | undefined;
  afterAll(async () => {
    if (started) await (await started.catch(() => undefined))?.stop();
  });
  return () => {
    started ??= startCluster();
    return started;
  };
}
