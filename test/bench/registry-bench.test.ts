import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { runLoad } from "../../bench/registry/load/load.js";
import { describePostgres, startCluster, type TestCluster } from "../helpers/postgres.js";

/** A server that counts the requests it answered, on its own port. */
async function countingServer(): Promise<{ port: number; count: () => number; close: () => Promise<void> }> {
  let answered = 0;
  const server: Server = createServer((_request, response) => {
    answered++;
    response.end("ok");
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return {
    port: address.port,
    count: () => answered,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

it("the load generator spreads requests round-robin over every port it is given", async () => {
  const [a, b] = await Promise.all([countingServer(), countingServer()]);
  if (!a || !b) throw new Error("no servers");
  try {
    const result = await runLoad({
      ports: [a.port, b.port],
      connections: 1,
      warmupMs: 0,
      durationMs: 60_000,
      maxCalls: 40,
      calls: [{ method: "GET", path: "/" }],
      okStatuses: [200],
    });
    expect(result.errors).toBe(0);
    expect([a.count(), b.count()]).toEqual([20, 20]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

it("a count warm-up that would take too long ends at warmupMaxMs, and the measured window follows", async () => {
  const server = await countingServer();
  try {
    const started = performance.now();
    const result = await runLoad({
      ports: [server.port],
      connections: 2,
      warmupMs: 0,
      // Far more than can be sent in the cap: without it, nothing would ever be measured.
      warmupCalls: 100_000_000,
      warmupMaxMs: 300,
      durationMs: 300,
      calls: [{ method: "GET", path: "/" }],
      okStatuses: [200],
    });
    expect(result.calls).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(30_000);
  } finally {
    await server.close();
  }
});

describePostgres("the bench's PostgreSQL cluster", () => {
  let cluster: TestCluster | undefined;
  afterAll(async () => {
    await cluster?.stop();
  });

  it("copies a database from a template with its rows, and stopSync stops the server and removes its dir", async () => {
    cluster = await startCluster();
    const seeded = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: seeded });
    await client.connect();
    await client.query("CREATE TABLE t (v text); INSERT INTO t VALUES ('seeded')");
    await client.end();

    const copy = await cluster.createDatabase(seeded);
    expect(copy).not.toBe(seeded);
    const reader = new pg.Client({ connectionString: copy });
    await reader.connect();
    const { rows } = await reader.query("SELECT v FROM t");
    await reader.end();
    expect(rows).toEqual([{ v: "seeded" }]);

    const dir = await clusterDir(cluster);
    cluster.stopSync();
    expect(existsSync(dir)).toBe(false);
    // SIGQUIT takes the server down within moments; it then refuses every connection.
    let refused = false;
    for (let i = 0; i < 50 && !refused; i++) {
      const probe = new pg.Client({ connectionString: cluster.url(), connectionTimeoutMillis: 1_000 });
      try {
        await probe.connect();
        await probe.end();
        await sleep(100);
      } catch {
        refused = true;
      }
    }
    expect(refused).toBe(true);
  });
});

/** The cluster's temp dir, from the server itself (its data directory's parent). */
async function clusterDir(cluster: TestCluster): Promise<string> {
  const client = new pg.Client({ connectionString: cluster.url() });
  await client.connect();
  const { rows } = await client.query<{ data_directory: string }>("SHOW data_directory");
  await client.end();
  return join(rows[0]?.data_directory ?? "/nonexistent", "..");
}
