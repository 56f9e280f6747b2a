import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { HeadObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { integrityHex } from "../../package/integrity.js";
import { signedMessage, verifySignature } from "../../package/signature.js";
import { hookyard } from "../helpers/cli.js";
import { describePostgres, fileCluster } from "../helpers/postgres.js";
import { fileS3, s3Env } from "../helpers/s3.js";
import { tempDir } from "../helpers/temp.js";
import { processWaitMs } from "../helpers/timeouts.js";
import { type Answer, call, filesUnder, hookPackage, publishPath } from "./helpers.js";
import { builtModule, type ServerProcess, startScriptServer, startServerProcess } from "./server-process.js";

/**
 * Two real `hookyard registry serve` processes on one PostgreSQL database and one place for the
 * tarballs (a shared --data directory, or one S3 bucket on s3rver) serve one registry: a publish
 * race between them has one winner, a publish on one is seen by the other within the bound
 * docs/registry/README.md gives (1 s), one killed mid-publish leaves no row without its blob while the
 * other serves on, download counts add up, and both sign with the one key kept in the database.
 */

const cluster = fileCluster();
const s3 = fileS3();

/** Where the processes keep the tarballs, and how a test looks at them behind their back. */
interface SharedBlobs {
  /** --blobs, when not the shared --data. */
  args: string[];
  env: Record<string, string>;
  /** buildRegistry's option, for a test's own script. */
  options: { blobs?: string };
  count(): Promise<number>;
  has(integrity: string): Promise<boolean>;
}

type Place = "a shared --data" | "one S3 bucket";
const places: Place[] = ["a shared --data", "one S3 bucket"];

async function sharedBlobs(place: Place, root: string): Promise<SharedBlobs> {
  if (place === "a shared --data") {
    const dir = join(root, "shared", "blobs");
    return {
      args: [],
      env: {},
      options: {},
      count: async () => (await filesUnder(dir)).length,
      has: async (integrity) => {
        const hex = integrityHex(integrity) as string;
        return existsSync(join(dir, "sha512", hex.slice(0, 2), hex));
      },
    };
  }
  const server = await s3();
  const url = await server.createBucket("registry/");
  const bucket = new URL(url).hostname;
  return {
    args: ["--blobs", url],
    env: s3Env,
    options: { blobs: url },
    count: async () =>
      (await server.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "registry/sha512/" })))
        .Contents?.length ?? 0,
    has: async (integrity) => {
      const hex = integrityHex(integrity) as string;
      const key = `registry/sha512/${hex.slice(0, 2)}/${hex}`;
      return server.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })).then(
        () => true,
        () => false,
      );
    },
  };
}
/** docs/registry/README.md ("PostgreSQL"): a change is seen by every other process within this. */
const documentedBoundMs = 1_000;

interface Pair {
  root: string;
  database: string;
  blobs: SharedBlobs;
  a: ServerProcess;
  b: ServerProcess;
  token: string;
}

const serveArgs = (database: string, port = "0", blobs: string[] = []) => [
  "registry",
  "serve",
  "--data",
  "shared",
  "--database",
  database,
  ...blobs,
  "--port",
  port,
  "--log-level",
  "warn",
];

async function pair(place: Place = "a shared --data"): Promise<Pair> {
  const root = await tempDir();
  const database = await (await cluster()).createDatabase();
  const blobs = await sharedBlobs(place, root);
  const a = await startServerProcess(serveArgs(database, "0", blobs.args), { cwd: root, env: blobs.env });
  const b = await startServerProcess(serveArgs(database, "0", blobs.args), { cwd: root, env: blobs.env });
  expect(a.adminToken).toMatch(/^hyk_/);
  expect(b.adminToken).toBeUndefined();
  return { root, database, blobs, a, b, token: a.adminToken ?? "" };
}

async function sql<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function put(server: ServerProcess, token: string, name: string, version: string, body: Buffer) {
  return call(server.url, publishPath(name, version), { method: "PUT", token, body });
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
}

/** Version rows whose tarball is not stored: must always be none. */
async function rowsWithoutBlob(p: Pair): Promise<string[]> {
  const rows = await sql<{ id: string; integrity: string }>(
    p.database,
    "SELECT p.name || '@' || v.version AS id, v.integrity FROM versions v JOIN packages p ON p.id = v.package_id",
  );
  const missing: string[] = [];
  for (const { id, integrity } of rows) if (!(await p.blobs.has(integrity))) missing.push(id);
  return missing;
}

describePostgres("two registry processes on one PostgreSQL database", () => {
  describe.each(places)("and %s for the tarballs", (place) => {
    it("a publish race of one name@version against both, twenty times: one 201 and one 409 each, one row, the winner's bytes", async () => {
      const p = await pair(place);
      for (let round = 0; round < 20; round++) {
        const version = `1.0.${round}`;
        // Different bytes from each side, so the loser's blob is told apart from the winner's.
        const [fromA, fromB] = await Promise.all(
          ["A", "B"].map((side) => hookPackage({ name: "raced", version, description: `from ${side}` })),
        );
        const answers: Answer[] = await Promise.all([
          put(p.a, p.token, "raced", version, fromA as Buffer),
          put(p.b, p.token, "raced", version, fromB as Buffer),
        ]);
        expect(answers.map((answer) => answer.status).sort(), `round ${round}`).toEqual([201, 409]);
        const loser = answers.find((answer) => answer.status === 409);
        expect(loser?.json.error.code).toBe("REG_ERR_VERSION_EXISTS");
        const winner = answers[0]?.status === 201 ? fromA : fromB;
        for (const server of [p.a, p.b]) {
          const download = await call(server.url, `/v1/packages/raced/${version}/tarball`);
          expect(download.bytes.equals(winner as Buffer), `round ${round}`).toBe(true);
        }
      }
      const rows = await sql<{ version: string; n: number }>(
        p.database,
        "SELECT version, count(*)::int AS n FROM versions GROUP BY version ORDER BY version",
      );
      expect(rows).toHaveLength(20);
      expect(rows.every((row) => row.n === 1)).toBe(true);
      // Each loser removed its own blob: one tarball per version is left.
      expect(await p.blobs.count()).toBe(20);
      expect(await rowsWithoutBlob(p)).toEqual([]);
    });

    it(`a publish or yank on one is in the other's package document within ${documentedBoundMs} ms`, async () => {
      const p = await pair(place);
      const seen = async (server: ServerProcess, check: (document: Answer) => boolean): Promise<number> => {
        const started = Date.now();
        for (;;) {
          const document = await call(server.url, "/v1/packages/seen");
          if (check(document)) return Date.now() - started;
          if (Date.now() - started > 5 * documentedBoundMs) throw new Error("not seen within 5 s");
          await sleep(5);
        }
      };
      expect((await put(p.a, p.token, "seen", "1.0.0", await hookPackage({ name: "seen" }))).status).toBe(
        201,
      );
      // B reads (and keeps) the document as it is now.
      expect(await seen(p.b, (d) => d.status === 200)).toBeLessThan(documentedBoundMs);
      const kept = await call(p.b.url, "/v1/packages/seen");
      expect(Object.keys(kept.json.versions)).toEqual(["1.0.0"]);

      const delays: number[] = [];
      for (let minor = 1; minor <= 5; minor++) {
        const version = `1.${minor}.0`;
        const tarball = await hookPackage({ name: "seen", version });
        expect((await put(p.a, p.token, "seen", version, tarball)).status).toBe(201);
        delays.push(await seen(p.b, (d) => d.json?.versions?.[version] !== undefined));
        expect((await call(p.b.url, "/v1/packages/seen")).json["dist-tags"].latest).toBe(version);
      }
      // A yank through B reaches A's kept document the same way.
      const yank = await call(p.b.url, "/v1/packages/seen/1.5.0/yank", {
        method: "POST",
        token: p.token,
        json: { reason: "broken" },
      });
      expect(yank.status, yank.bytes.toString()).toBe(200);
      delays.push(await seen(p.a, (d) => d.json.versions["1.5.0"].yanked !== null));
      expect(Math.max(...delays)).toBeLessThan(documentedBoundMs);
    });

    it("SIGKILL of one mid-publish: the other serves on, no row without its blob, the sweep waits until it runs alone", async () => {
      const root = await tempDir();
      const database = await (await cluster()).createDatabase();
      const blobs = await sharedBlobs(place, root);
      // A pauses every publish of `killed` after its blob is stored, before its row is committed.
      const script = `
      import { buildRegistry } from ${JSON.stringify(builtModule("registry/app.js"))};
      const hooks = {
        beforeCommit(pending) {
          if (pending.name !== "killed") return;
          process.stderr.write("paused before commit\\n");
          return new Promise(() => {});
        },
      };
      const app = await buildRegistry({ dataDir: ${JSON.stringify(join(root, "shared"))}, database: ${JSON.stringify(database)}, ...${JSON.stringify(blobs.options)}, hooks });
      const address = await app.listen({ port: 0, host: "127.0.0.1" });
      process.stderr.write("admin token (shown this once): " + app.registry.initialAdminToken + "\\n");
      process.stderr.write("hookyard registry listening on " + address + "\\n");
    `;
      const serve = (port = "0") => serveArgs(database, port, blobs.args);
      const a = await startScriptServer(script, { cwd: root, env: blobs.env });
      const b = await startServerProcess(serve(), { cwd: root, env: blobs.env });
      const token = a.adminToken ?? "";
      const p: Pair = { root, database, blobs, a, b, token };
      expect((await put(a, token, "alive", "1.0.0", await hookPackage({ name: "alive" }))).status).toBe(201);

      const killedTarball = await hookPackage({ name: "killed" });
      const publishing = put(a, token, "killed", "1.0.0", killedTarball).then(
        () => "answered",
        () => "connection lost",
      );
      for (let waited = 0; !a.stderr().includes("paused before commit"); waited += 20) {
        if (waited > processWaitMs) throw new Error("A never paused");
        await sleep(20);
      }
      a.child.kill("SIGKILL");
      expect(await a.exited).toBe("SIGKILL");
      expect(await publishing).toBe("connection lost");

      // B serves on: reads, downloads and a new publish.
      expect((await call(b.url, "/v1/packages/alive")).status).toBe(200);
      expect((await call(b.url, "/v1/packages/killed")).status).toBe(404);
      expect((await put(b, token, "after", "1.0.0", await hookPackage({ name: "after" }))).status).toBe(201);
      expect(await sql(database, "SELECT 1 FROM packages WHERE name = 'killed'")).toEqual([]);
      expect(await rowsWithoutBlob(p)).toEqual([]);
      // The killed publish left an orphan tarball (alive, after, and it).
      expect(await blobs.count()).toBe(3);

      // A start beside B is not alone: it sweeps nothing, since B might be mid-publish.
      const c = await startServerProcess(serve(), { cwd: root, env: blobs.env });
      expect(await blobs.count()).toBe(3);
      await stop(c);
      await stop(b);
      // Alone, the next start removes the orphan; the killed version was never taken.
      const d = await startServerProcess(serve(), { cwd: root, env: blobs.env });
      expect(await blobs.count()).toBe(2);
      expect((await put(d, token, "killed", "1.0.0", killedTarball)).status).toBe(201);
      expect(await rowsWithoutBlob(p)).toEqual([]);
      await stop(d);
    });
  });

  it("download counts from both processes add up", async () => {
    const p = await pair();
    expect((await put(p.a, p.token, "counted", "1.0.0", await hookPackage({ name: "counted" }))).status).toBe(
      201,
    );
    const download = (server: ServerProcess) => call(server.url, "/v1/packages/counted/1.0.0/tarball");
    for (let i = 0; i < 3; i++) expect((await download(p.a)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await download(p.b)).status).toBe(200);
    // Stopping writes what each counted in memory.
    await stop(p.a);
    await stop(p.b);
    expect(await sql(p.database, "SELECT downloads FROM packages WHERE name = 'counted'")).toEqual([
      { downloads: 8 },
    ]);
    expect(await sql(p.database, "SELECT sum(count)::int AS n FROM download_counts")).toEqual([{ n: 8 }]);
    const again = await startServerProcess(serveArgs(p.database), { cwd: p.root });
    expect((await call(again.url, "/v1/search?q=counted")).json.results[0].downloads).toBe(8);
    await stop(again);
  });

  it("both sign with the key kept in the database: a client that pinned one's key accepts the other's", async () => {
    const p = await pair();
    const [keysA, keysB] = await Promise.all([p.a, p.b].map((s) => call(s.url, "/v1/keys")));
    expect(keysB?.json).toEqual(keysA?.json);
    const key = keysA?.json.keys[0];
    expect(existsSync(join(p.root, "shared", "keys", "ed25519.pem"))).toBe(false);

    const tarball = await hookPackage({ name: "signed-on-b" });
    const published = await put(p.b, p.token, "signed-on-b", "1.0.0", tarball);
    expect(published.status).toBe(201);
    const version = (await call(p.a.url, "/v1/packages/signed-on-b")).json.versions["1.0.0"];
    expect(version.keyId).toBe(key.keyId);
    const message = signedMessage("signed-on-b", "1.0.0", version.integrity);
    expect(verifySignature(key.publicKey, message, version.signature)).toBe(true);

    // A workspace pins A's key at A's address; A is then replaced there by a third process.
    expect((await put(p.a, p.token, "first", "1.0.0", await hookPackage({ name: "first" }))).status).toBe(
      201,
    );
    const ws = await tempDir();
    const env = { HOOKYARD_CONFIG: join(ws, ".user-config.json") };
    const install = (name: string) =>
      hookyard(["install", name, "--registry", p.a.url, "--yes"], { cwd: ws, env });
    const first = await install("first");
    expect(first.code, first.stderr).toBe(0);
    const port = new URL(p.a.url).port;
    await stop(p.a);
    const replacement = await startServerProcess(serveArgs(p.database, port), { cwd: p.root });
    expect(replacement.url).toBe(p.a.url);
    const second = await install("signed-on-b");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain("CLI_ERR_KEY_CHANGED");
    await stop(replacement);
  });
});
