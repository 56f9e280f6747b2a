import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import { expect, it } from "vitest";
import { hookyard } from "../helpers/cli.js";
import { clusterPassword, describePostgres, fileCluster } from "../helpers/postgres.js";
import { tempDir } from "../helpers/temp.js";
import { call, hookPackage, publishPath } from "./helpers.js";
import { startServerProcess } from "./server-process.js";

/**
 * `hookyard registry serve --database <url>` (or HOOKYARD_REGISTRY_DATABASE) through the real
 * bin against a real PostgreSQL: it serves from the database, and every bad URL, unreachable
 * server or refused password is one line with its code, the password never shown, no stack.
 */

const cluster = fileCluster();
const serve = ["registry", "serve", "--data", "data", "--port", "0", "--log-level", "silent"];

async function rowsIn(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A start that must fail: exit 1, one line naming CLI_ERR_REGISTRY and `code`, no stack trace. */
async function refusedStart(args: string[], code: string, env: NodeJS.ProcessEnv = {}) {
  const root = await tempDir();
  const result = await hookyard(["registry", "serve", "--data", "data", "--port", "0", ...args], {
    cwd: root,
    env,
  });
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^hookyard: CLI_ERR_REGISTRY: .*\\(${code}\\)$`));
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
}

describePostgres("hookyard registry serve --database", () => {
  it("keeps packages and tokens in PostgreSQL, not in --data, across restarts", async () => {
    const database = await (await cluster()).createDatabase();
    const root = await tempDir();
    const first = await startServerProcess([...serve, "--database", database], { cwd: root });
    expect(first.stderr()).toContain("database: postgres://postgres:***@127.0.0.1:");
    expect(first.stderr()).not.toContain(clusterPassword);
    const tarball = await hookPackage({ name: "kept-in-pg" });
    const published = await call(first.url, publishPath("kept-in-pg", "1.0.0"), {
      method: "PUT",
      token: first.adminToken,
      body: tarball,
    });
    expect(published.status, published.bytes.toString()).toBe(201);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    expect(await rowsIn(database, "SELECT version FROM versions")).toEqual([{ version: "1.0.0" }]);
    // The data dir holds the tarball; no sqlite database and no key file (the key is in PostgreSQL).
    expect(existsSync(join(root, "data", "registry.sqlite"))).toBe(false);
    expect(existsSync(join(root, "data", "keys", "ed25519.pem"))).toBe(false);

    // The same registry from the environment variable: no second admin token, the first still works.
    const second = await startServerProcess(serve, {
      cwd: root,
      env: { HOOKYARD_REGISTRY_DATABASE: database },
    });
    expect(second.adminToken).toBeUndefined();
    const document = await call(second.url, "/v1/packages/kept-in-pg");
    expect(Object.keys(document.json.versions)).toEqual(["1.0.0"]);
    const download = await call(second.url, "/v1/packages/kept-in-pg/1.0.0/tarball");
    expect(download.bytes.equals(tarball)).toBe(true);
    expect((await call(second.url, "/v1/tokens", { token: first.adminToken })).status).toBe(200);
    // token create works on the database beside the running server.
    const made = await hookyard(
      ["registry", "token", "create", "--owner", "bob", "--database", database, "--json"],
      { cwd: root },
    );
    expect(made.code, made.stderr).toBe(0);
    const whoami = await call(second.url, "/v1/whoami", { token: JSON.parse(made.stdout).token });
    expect(whoami.json).toMatchObject({ owner: "bob", scope: "publish" });
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("takes sqlite:<path>, relative to --cwd, for a database file outside --data", async () => {
    const root = await tempDir();
    const server = await startServerProcess([...serve, "--database", "sqlite:meta/hooks.db"], { cwd: root });
    expect(server.adminToken).toMatch(/^hyk_/);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(existsSync(join(root, "meta", "hooks.db"))).toBe(true);
    expect(existsSync(join(root, "data", "registry.sqlite"))).toBe(false);
  });

  it("--database wins over HOOKYARD_REGISTRY_DATABASE", async () => {
    const line = await refusedStart(
      ["--database", "mysql://root:hunter2@db/registry"],
      "REG_ERR_DATABASE_URL",
      {
        HOOKYARD_REGISTRY_DATABASE: "sqlite:ignored.db",
      },
    );
    expect(line).toContain("mysql:");
  });

  it.each([
    [
      "an unknown scheme",
      "mysql://root:hunter2@db.example/registry",
      "has a scheme hookyard does not know (mysql:)",
    ],
    ["no scheme", "/var/lib/hookyard/registry.db", "has no scheme"],
    [
      "a URL that does not parse",
      "postgres://root:hunter2@db.example:99999999/registry",
      "is not a valid URL",
    ],
    ["no database name", "postgres://root:hunter2@db.example:5432", "names no database"],
    ["an empty sqlite path", "sqlite:", "names no file"],
  ])(
    "refuses %s with REG_ERR_DATABASE_URL, saying what to pass, the password left out",
    async (_what, url, problem) => {
      const line = await refusedStart(["--database", url], "REG_ERR_DATABASE_URL");
      expect(line).toContain(problem);
      expect(line).toContain("sqlite:<path> or postgres://user:password@host:port/database");
      expect(line).not.toContain("hunter2");
    },
  );

  it("refuses a bad HOOKYARD_REGISTRY_DATABASE the same way", async () => {
    const line = await refusedStart([], "REG_ERR_DATABASE_URL", {
      HOOKYARD_REGISTRY_DATABASE: "redis://:hunter2@cache/0",
    });
    expect(line).toContain("redis:");
    expect(line).not.toContain("hunter2");
  });

  it("an unreachable server is REG_ERR_DATABASE_UNREACHABLE, naming where it tried", async () => {
    const port = await freePort();
    const started = Date.now();
    const line = await refusedStart(
      ["--database", `postgres://postgres:hunter2@127.0.0.1:${port}/registry`],
      "REG_ERR_DATABASE_UNREACHABLE",
    );
    expect(line).toContain(
      `cannot reach the PostgreSQL server at postgres://postgres:***@127.0.0.1:${port}/registry`,
    );
    expect(line).toContain("check that it runs");
    expect(line).not.toContain("hunter2");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("a wrong password is REG_ERR_DATABASE_AUTH, and the password is not shown", async () => {
    const { port } = await cluster();
    const line = await refusedStart(
      ["--database", `postgres://postgres:not-the-password@127.0.0.1:${port}/postgres`],
      "REG_ERR_DATABASE_AUTH",
    );
    expect(line).toContain("refused the credentials");
    expect(line).toContain("check the user and password");
    expect(line).not.toContain("not-the-password");
  });

  it("a database that does not exist is REG_ERR_DATABASE_UNREACHABLE, saying to create it", async () => {
    const line = await refusedStart(
      ["--database", (await cluster()).url("no_such_database")],
      "REG_ERR_DATABASE_UNREACHABLE",
    );
    expect(line).toContain("has no such database");
    expect(line).toContain("createdb");
    expect(line).not.toContain(clusterPassword);
  });
});
