import { existsSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterEach, describe, expect, it } from "vitest";
import { integrityHex } from "../../package/integrity.js";
import { hookyard } from "../helpers/cli.js";
import { describePostgres, fileCluster } from "../helpers/postgres.js";
import { fileS3, s3Env } from "../helpers/s3.js";
import { tempDir } from "../helpers/temp.js";
import { call, filesUnder, hookPackage, publishPath } from "./helpers.js";
import { startServerProcess } from "./server-process.js";

/**
 * `hookyard registry serve --blobs <url>` (or HOOKYARD_REGISTRY_BLOBS) through the real bin, on
 * s3rver (test/helpers/s3.ts): the tarballs go to the bucket (or a file: directory), and a bad
 * URL, a server that is down or silent, a missing bucket and refused keys are each one line with
 * their code, no secret shown, no stack.
 */

const cluster = fileCluster();
const s3 = fileS3();
const serve = ["registry", "serve", "--data", "data", "--port", "0", "--log-level", "silent"];

const listening: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(listening.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A TCP port on 127.0.0.1 that takes connections and never answers one. */
async function silentPort(): Promise<number> {
  const server = createServer((socket) => sockets.push(socket));
  listening.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A start that must fail: exit 1, one line naming CLI_ERR_REGISTRY and `code`, no stack trace. */
async function refusedStart(
  args: string[],
  code: string,
  env: NodeJS.ProcessEnv = s3Env,
  // Refused after the database and key were made (telling whose a bucket is takes the key).
  { afterDatabase = false } = {},
) {
  const root = await tempDir();
  const result = await hookyard([...serve, ...args], { cwd: root, env });
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^hookyard: CLI_ERR_REGISTRY: .*\\(${code}\\)$`));
  expect(result.stderr).not.toMatch(/\n\s+at /);
  // The blobs are checked before the database is opened: a refusal leaves no database behind.
  expect(existsSync(join(root, "data", "registry.sqlite"))).toBe(afterDatabase);
  return lines[0] as string;
}

async function keysIn(bucketUrl: string): Promise<string[]> {
  const bucket = new URL(bucketUrl).hostname;
  const listed = await (await s3()).client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
}

describePostgres("hookyard registry serve --database postgres://… --blobs s3://…", () => {
  it("keeps the tarballs in the bucket and nothing shared in --data, across restarts", async () => {
    const database = await (await cluster()).createDatabase();
    const blobs = await (await s3()).createBucket("hooks/");
    const root = await tempDir();
    const first = await startServerProcess([...serve, "--database", database, "--blobs", blobs], {
      cwd: root,
      env: s3Env,
    });
    expect(first.stderr()).toContain(`blobs: ${blobs}`);
    const tarball = await hookPackage({ name: "kept-in-s3" });
    const published = await call(first.url, publishPath("kept-in-s3", "1.0.0"), {
      method: "PUT",
      token: first.adminToken,
      body: tarball,
    });
    expect(published.status, published.bytes.toString()).toBe(201);
    const hex = integrityHex(published.json.integrity) as string;
    // The tarball, and the mark that says whose the prefix is.
    expect(await keysIn(blobs)).toEqual([
      "hooks/hookyard-registry.json",
      `hooks/sha512/${hex.slice(0, 2)}/${hex}`,
    ]);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // No database, no key, no tarball in --data: another machine with an empty --data is the same registry.
    expect((await filesUnder(join(root, "data"))).filter((f) => !f.startsWith("tmp/"))).toEqual([]);

    const elsewhere = await tempDir();
    const second = await startServerProcess([...serve, "--database", database], {
      cwd: elsewhere,
      env: { ...s3Env, HOOKYARD_REGISTRY_BLOBS: blobs },
    });
    expect(second.adminToken).toBeUndefined();
    const download = await call(second.url, "/v1/packages/kept-in-s3/1.0.0/tarball");
    expect(download.status).toBe(200);
    expect(download.bytes.equals(tarball)).toBe(true);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});

describe("hookyard registry serve --blobs", () => {
  it("takes file:<dir>, relative to --cwd, for tarballs outside --data", async () => {
    const root = await tempDir();
    const server = await startServerProcess([...serve, "--blobs", "file:tarballs"], { cwd: root });
    const published = await call(server.url, publishPath("kept-in-dir", "1.0.0"), {
      method: "PUT",
      token: server.adminToken,
      body: await hookPackage({ name: "kept-in-dir" }),
    });
    expect(published.status).toBe(201);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const hex = integrityHex(published.json.integrity) as string;
    expect(await filesUnder(join(root, "tarballs"))).toEqual([`sha512/${hex.slice(0, 2)}/${hex}`]);
    expect(await filesUnder(join(root, "data", "blobs"))).toEqual([]);
  });

  it("an embedded registry with its tarballs in a bucket: served from there", async () => {
    const blobs = await (await s3()).createBucket();
    const root = await tempDir();
    const server = await startServerProcess([...serve, "--blobs", blobs], { cwd: root, env: s3Env });
    const tarball = await hookPackage({ name: "sqlite-and-s3" });
    const put = await call(server.url, publishPath("sqlite-and-s3", "1.0.0"), {
      method: "PUT",
      token: server.adminToken,
      body: tarball,
    });
    expect(put.status).toBe(201);
    expect((await keysIn(blobs)).filter((key) => key.startsWith("sha512/"))).toHaveLength(1);
    expect((await call(server.url, "/v1/packages/sqlite-and-s3/1.0.0/tarball")).bytes.equals(tarball)).toBe(
      true,
    );
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await filesUnder(join(root, "data", "blobs"))).toEqual([]);
  });

  it("a second registry on the bucket prefix of another is refused (REG_ERR_BLOBS_IN_USE); its own prefix is fine", async () => {
    const blobs = await (await s3()).createBucket("shared/");
    const root = await tempDir();
    const first = await startServerProcess([...serve, "--blobs", blobs], { cwd: root, env: s3Env });
    const tarball = await hookPackage({ name: "first-registry" });
    const put = await call(first.url, publishPath("first-registry", "1.0.0"), {
      method: "PUT",
      token: first.adminToken,
      body: tarball,
    });
    expect(put.status).toBe(201);
    // Another data dir is another registry (its own database and signing key).
    const line = await refusedStart(["--blobs", blobs], "REG_ERR_BLOBS_IN_USE", s3Env, {
      afterDatabase: true,
    });
    expect(line).toContain("holds the tarballs of another registry (signing key ");
    expect(line).toContain("give each registry a bucket or a prefix of its own");
    // The refused start swept nothing: the first registry still serves its tarball.
    const download = await call(first.url, "/v1/packages/first-registry/1.0.0/tarball");
    expect(download.bytes.equals(tarball)).toBe(true);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    // The first registry starts again on its prefix; a second one on a prefix of its own.
    const again = await startServerProcess([...serve, "--blobs", blobs], { cwd: root, env: s3Env });
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
    const own = blobs.replace("/shared/", "/other/");
    const second = await startServerProcess([...serve, "--blobs", own], { cwd: await tempDir(), env: s3Env });
    expect(second.adminToken).toMatch(/^hyk_/);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it.each([
    ["an unknown scheme", "ftp://bucket/x", "has a scheme hookyard does not know (ftp:)"],
    ["no scheme", "bucket", "has no scheme"],
    ["an empty file:", "file:", "names no directory"],
    ["a bucket name S3 does not allow", "s3://Bad_Bucket", "names a bucket S3 does not allow"],
    ["a port on the bucket", "s3://bucket:9000", "has a port"],
    [
      "an unknown parameter",
      "s3://bucket?endpoint=http://127.0.0.1:1&acl=x",
      "parameter hookyard does not know (acl)",
    ],
    ["an endpoint that is not http", "s3://bucket?endpoint=ftp://127.0.0.1", "not http: or https:"],
    ["a bad forcePathStyle", "s3://bucket?forcePathStyle=yes", "forcePathStyle other than true or false"],
  ])("refuses %s with REG_ERR_BLOBS_URL, saying what to pass", async (_case, url, problem) => {
    const line = await refusedStart(["--blobs", url], "REG_ERR_BLOBS_URL");
    expect(line).toContain(problem);
    expect(line).toContain("pass file:<dir> or s3://bucket[/prefix]?endpoint=…&region=… to --blobs");
  });

  it("refuses credentials in the URL without showing them, and says where they go", async () => {
    for (const url of [
      "s3://AKIAEXAMPLE:wJalrXUtnFEMI-secret@bucket?endpoint=http://127.0.0.1:1",
      "s3://AKIAEXAMPLE:wJalrXUtnFEMI-secret@",
      "s3://bucket?secretAccessKey=wJalrXUtnFEMI-secret",
    ]) {
      const line = await refusedStart(["--blobs", url], "REG_ERR_BLOBS_URL");
      expect(line).not.toContain("wJalrXUtnFEMI-secret");
      if (url.includes("@")) expect(line).toContain("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    }
  });

  it("--blobs wins over HOOKYARD_REGISTRY_BLOBS", async () => {
    const line = await refusedStart(["--blobs", "ftp://from-the-flag"], "REG_ERR_BLOBS_URL", {
      ...s3Env,
      HOOKYARD_REGISTRY_BLOBS: "file:from-the-env",
    });
    expect(line).toContain("ftp:");
  });

  it("a bucket that does not exist: REG_ERR_BLOBS_UNREACHABLE, naming it", async () => {
    const server = await s3();
    const line = await refusedStart(
      ["--blobs", `s3://no-such-bucket?endpoint=${server.endpoint}`],
      "REG_ERR_BLOBS_UNREACHABLE",
    );
    expect(line).toContain("the bucket no-such-bucket at http://127.0.0.1:");
    expect(line).toContain("does not exist");
  });

  it("nothing listening at the endpoint: REG_ERR_BLOBS_UNREACHABLE", async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const line = await refusedStart(
      ["--blobs", `s3://bucket?endpoint=${endpoint}`],
      "REG_ERR_BLOBS_UNREACHABLE",
    );
    expect(line).toContain(`cannot reach the bucket bucket at ${endpoint}`);
  });

  it("an endpoint that never answers: REG_ERR_BLOBS_UNREACHABLE after the 10 s bound, not a hang", async () => {
    const endpoint = `http://127.0.0.1:${await silentPort()}`;
    const started = Date.now();
    const line = await refusedStart(
      ["--blobs", `s3://bucket?endpoint=${endpoint}`],
      "REG_ERR_BLOBS_UNREACHABLE",
    );
    expect(line).toContain("no answer within 10 s");
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  // s3rver checks the access key id but not a SigV4 signature, so a wrong secret is not tried here.
  it("a key the server does not know: REG_ERR_BLOBS_AUTH, the secret not shown", async () => {
    const blobs = await (await s3()).createBucket();
    const env = { ...s3Env, AWS_ACCESS_KEY_ID: "NOT-A-KEY-IT-KNOWS", AWS_SECRET_ACCESS_KEY: "a-secret-1234" };
    const line = await refusedStart(["--blobs", blobs], "REG_ERR_BLOBS_AUTH", env);
    expect(line).toContain("refused the credentials (HTTP 403");
    expect(line).toContain("check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY or AWS_PROFILE");
    expect(line).not.toContain("a-secret-1234");
  });
});
