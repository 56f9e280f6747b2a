import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

/**
 * A throwaway PostgreSQL server (Debian's package): initdb and pg_ctl in a temp dir, as the
 * `postgres` user (the server refuses root), on a free loopback port with its socket in the temp
 * dir, fsync off since nothing here must survive. The registry's PostgreSQL tests
 * (test/helpers/postgres.ts) and the registry bench both start theirs here.
 */

const run = promisify(execFile);

/** The password of the cluster's `postgres` user: connections over TCP need it (scram-sha-256). */
export const clusterPassword = "pg-secret-for-tests";

export interface PostgresCluster {
  port: number;
  /** A URL for `database` (default: postgres) with the right password. */
  url(database?: string): string;
  /** A fresh, empty database (or a copy of `template`, which nobody may be connected to), for one registry. */
  createDatabase(template?: string): Promise<string>;
  stop(): Promise<void>;
  /** For process exit, where nothing can be awaited: the server is told to quit at once and its dir goes. */
  stopSync(): void;
}

export interface ClusterOptions {
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
}

export class PostgresNotInstalledError extends Error {
  override readonly name = "PostgresNotInstalledError";
}

function serverBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb")))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) {
    throw new PostgresNotInstalledError(
      "PostgreSQL is not installed: run `apt-get install -y postgresql` (Debian's package; .ci/run installs it in CI)",
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

export async function startCluster(options: ClusterOptions = {}): Promise<PostgresCluster> {
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
    const settings = {
      listen_addresses: "127.0.0.1",
      fsync: "off",
      synchronous_commit: "off",
      full_page_writes: "off",
      max_connections: 200,
      ...options.settings,
    };
    const flags = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
    await asPostgres("pg_ctl", [
      "-D",
      data,
      "-l",
      join(dir, "server.log"),
      "-w",
      "-t",
      "60",
      "-o",
      [`-p ${port}`, `-k ${dir}`, ...flags].join(" "),
      "start",
    ]);
    let made = 0;
    const url = (database = "postgres") =>
      `postgres://postgres:${clusterPassword}@127.0.0.1:${port}/${database}`;
    return {
      port,
      url,
      async createDatabase(template?: string) {
        const name = `registry_${++made}`;
        const client = new pg.Client({ connectionString: url() });
        await client.connect();
        try {
          const from = template ? ` TEMPLATE ${new URL(template).pathname.slice(1)}` : "";
          await client.query(`CREATE DATABASE ${name}${from} STRATEGY FILE_COPY`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      async stop() {
        await asPostgres("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
      stopSync() {
        try {
          // The first line of postmaster.pid is the server's pid; SIGQUIT is pg_ctl's "immediate".
          const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
          if (pid > 0) {
            process.kill(pid, "SIGQUIT");
            // It writes into its dir while it goes: remove the dir once it is gone (at most 5 s).
            const pause = new Int32Array(new SharedArrayBuffer(4));
            for (let i = 0; i < 100 && alive(pid); i++) Atomics.wait(pause, 0, 0, 50);
          }
        } catch {
          // Not running.
        }
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run("id", ["-u", "postgres"]);
  const { stdout: group } = await run("id", ["-g", "postgres"]);
  return [Number(stdout.trim()), Number(group.trim())];
}
