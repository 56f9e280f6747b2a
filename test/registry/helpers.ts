import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { Writable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach, describe } from "vitest";
import { packTarball } from "../../package/tarball/pack.js";
import { buildRegistry, type Registry, type RegistryOptions } from "../../registry/app.js";
import { type BlobsLocation, parseBlobsUrl } from "../../registry/blobs/blob-url.js";
import type { FsBlobStore } from "../../registry/blobs/fs-blob-store.js";
import type { S3BlobStore } from "../../registry/blobs/s3-blob-store.js";
import { fileCluster, postgresTestsSkipped } from "../helpers/postgres.js";
import { fileS3, s3Credentials } from "../helpers/s3.js";
import { tempDir } from "../helpers/temp.js";

/**
 * The deployments the registry runs as: embedded (sqlite and files in the data dir) and shared
 * (PostgreSQL and an S3 bucket, on s3rver: test/helpers/s3.ts). Suites run once on each
 * (describeEachBackend).
 */
export type Backend = "sqlite" | "postgres+s3";
/** PostgreSQL is left out only by the local opt-out HOOKYARD_POSTGRES_TESTS=skip (test/helpers/postgres.ts). */
export const backends: Backend[] = postgresTestsSkipped ? ["sqlite"] : ["sqlite", "postgres+s3"];

let currentBackend: Backend = "sqlite";
/** This test file's PostgreSQL cluster, started by its first postgres registry. */
export const cluster = fileCluster();
/** This test file's S3 server, started by its first postgres+s3 registry. */
export const s3 = fileS3();
/** The database each data dir's registry used, so that a restart on the dir finds its rows again. */
const databaseOf = new Map<string, string>();
/** The same for the bucket of its blobs. */
const blobsOf = new Map<string, string>();

/** `body` once per backend: startRegistry then builds on that backend. */
export function describeEachBackend(name: string, body: (backend: Backend) => void): void {
  describe.each(backends)(`${name} (%s)`, (backend) => {
    beforeEach(() => {
      currentBackend = backend;
    });
    // A plain describe after this one in the file runs embedded, as it says.
    afterEach(() => {
      currentBackend = "sqlite";
    });
    body(backend);
  });
}

export interface TestRegistry {
  app: Registry;
  url: string;
  /** The temp folder that holds the data dir and nothing else. */
  root: string;
  dataDir: string;
  /** The postgres:// URL when the registry runs on PostgreSQL. */
  database: string | undefined;
  /** The s3:// URL when its blobs are in a bucket. */
  blobs: string | undefined;
  /** The admin token made at first start. */
  admin: string;
  /** fetch against the registry; a `json` body is sent as JSON, a Buffer `body` as a tarball. */
  call(path: string, init?: CallInit): Promise<Answer>;
  close(): Promise<void>;
}

export interface CallInit {
  method?: string;
  token?: string;
  json?: unknown;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

/** A parsed JSON answer: many shapes, each checked field by field with expect. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read like JSON in a console, and every field read is asserted
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else undefined. */
  json: Json;
  bytes: Buffer;
}

const open: TestRegistry[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

/** A registry on 127.0.0.1 (port 0 unless `port`: a restart on the same address) over a fresh temp data dir (or `dataDir`), closed after the test. */
export async function startRegistry(
  options: Partial<RegistryOptions> & { root?: string; port?: number } = {},
): Promise<TestRegistry> {
  const root = options.root ?? (await tempDir());
  const dataDir = options.dataDir ?? join(root, "data");
  const { port = 0, root: _root, ...registryOptions } = options;
  let database = options.database ?? databaseOf.get(dataDir);
  if (database === undefined && currentBackend === "postgres+s3") {
    database = await (await cluster()).createDatabase();
  }
  if (typeof database === "string") databaseOf.set(dataDir, database);
  let blobs = options.blobs ?? blobsOf.get(dataDir);
  if (blobs === undefined && currentBackend === "postgres+s3") blobs = await (await s3()).createBucket();
  if (typeof blobs === "string") blobsOf.set(dataDir, blobs);
  const app = await buildRegistry({
    ...registryOptions,
    dataDir,
    ...(database ? { database } : {}),
    ...(blobs ? { blobs: withTestCredentials(blobs) } : {}),
  });
  await app.listen({ port, host: "127.0.0.1" });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  const url = `http://127.0.0.1:${address.port}`;
  let closed = false;
  const registry: TestRegistry = {
    app,
    url,
    root,
    dataDir,
    database: typeof database === "string" ? database : undefined,
    blobs: typeof blobs === "string" ? blobs : undefined,
    admin: app.registry.initialAdminToken ?? "",
    call: (path, init) => call(url, path, init),
    close: async () => {
      if (closed) return;
      closed = true;
      await app.close();
    },
  };
  open.push(registry);
  return registry;
}

/** An s3:// URL with the test server's keys (in-process, without touching process.env). */
function withTestCredentials(blobs: string | BlobsLocation): string | BlobsLocation {
  const location = typeof blobs === "string" ? parseBlobsUrl(blobs) : blobs;
  return location.kind === "s3" && !location.credentials
    ? { ...location, credentials: s3Credentials }
    : blobs;
}

/**
 * Where a registry's blob is, to reach it behind the registry's back as a disk error or someone
 * with write access to the bucket would: a file, or a bucket's key.
 */
async function rawPlace(reg: TestRegistry, integrity: string) {
  if (!reg.blobs)
    return { kind: "file", file: (reg.app.registry.blobs as FsBlobStore).fileOf(integrity) } as const;
  const { bucket } = parseBlobsUrl(reg.blobs) as { bucket: string };
  const key = (reg.app.registry.blobs as S3BlobStore).keyOf(integrity);
  return { kind: "s3", bucket, key, client: (await s3()).client } as const;
}

/** Writes `bytes` over the stored blob (through the SDK for a bucket), not through the registry. */
export async function overwriteBlob(reg: TestRegistry, integrity: string, bytes: Buffer): Promise<void> {
  const place = await rawPlace(reg, integrity);
  if (place.kind === "file") return writeFile(place.file, bytes);
  await place.client.send(new PutObjectCommand({ Bucket: place.bucket, Key: place.key, Body: bytes }));
}

/** Removes the stored blob behind the registry's back. */
export async function removeBlob(reg: TestRegistry, integrity: string): Promise<void> {
  const place = await rawPlace(reg, integrity);
  if (place.kind === "file") return rm(place.file);
  await place.client.send(new DeleteObjectCommand({ Bucket: place.bucket, Key: place.key }));
}

/** The stored blob's bytes as stored, read behind the registry's back. */
export async function rawBlob(reg: TestRegistry, integrity: string): Promise<Buffer> {
  const place = await rawPlace(reg, integrity);
  if (place.kind === "file") return readFile(place.file);
  const answer = await place.client.send(new GetObjectCommand({ Bucket: place.bucket, Key: place.key }));
  return Buffer.from((await answer.Body?.transformToByteArray()) ?? []);
}

export async function call(base: string, path: string, init: CallInit = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  let body: string | Buffer | undefined;
  if (init.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(init.json);
  } else if (init.body !== undefined) {
    headers["content-type"] ??= "application/octet-stream";
    body = init.body;
  }
  const response = await fetch(`${base}${path}`, { method: init.method ?? "GET", headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    json: type.includes("json") && bytes.length > 0 ? JSON.parse(bytes.toString()) : undefined,
    bytes,
  };
}

/** A token of `scope` for `owner`, made with the admin token. */
export async function tokenFor(reg: TestRegistry, owner: string, scope = "publish"): Promise<string> {
  const answer = await reg.call("/v1/tokens", { method: "POST", token: reg.admin, json: { owner, scope } });
  if (answer.status !== 201) throw new Error(`token for ${owner}: ${answer.status} ${answer.bytes}`);
  return answer.json.token as string;
}

export interface PackageSpec {
  name: string;
  version?: string;
  description?: string;
  keywords?: string[];
  /** Merged over the default manifest (a `hookyard` here replaces the default's). */
  manifest?: Record<string, unknown>;
  /** Extra or replacing files, relative to package/. */
  files?: Record<string, string>;
  /** Leave package.json out. */
  noManifest?: boolean;
}

export function manifestFor(spec: PackageSpec): Record<string, unknown> {
  return {
    name: spec.name,
    version: spec.version ?? "1.0.0",
    description: spec.description ?? `the ${spec.name} hook`,
    license: "MIT",
    keywords: spec.keywords ?? ["hook"],
    hookyard: {
      main: "dist/hook.js",
      events: ["tool_before"],
      capabilities: { fs: { read: ["src"] }, net: ["api.example.com:443"] },
      effects: ["block"],
    },
    ...spec.manifest,
  };
}

/** A valid hook package tarball (reproducible, via packTarball). */
export async function hookPackage(spec: PackageSpec): Promise<Buffer> {
  const files: Record<string, string> = {
    "dist/hook.js": `export default { name: ${JSON.stringify(spec.name)}, on: {} };\n`,
    "README.md": `# ${spec.name}\n\nA hook.\n`,
    ...(spec.noManifest ? {} : { "package.json": JSON.stringify(manifestFor(spec), null, 2) }),
    ...spec.files,
  };
  return packTarball(Object.entries(files).map(([path, data]) => ({ path, data })));
}

export function publishPath(name: string, version: string): string {
  return `/v1/packages/${encodeURIComponent(name)}/${encodeURIComponent(version)}`;
}

/** PUT the tarball for name@version. */
export function publish(
  reg: TestRegistry,
  token: string,
  tarball: Buffer,
  name: string,
  version = "1.0.0",
): Promise<Answer> {
  return reg.call(publishPath(name, version), { method: "PUT", token, body: tarball });
}

/** Every file under `dir`, relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** Rows in `table`, read through a separate connection (read-only for sqlite), as an operator would. */
export async function countRows(reg: TestRegistry, table: string): Promise<number> {
  if (reg.database?.startsWith("postgres"))
    return (await sqlRows<{ n: number }>(reg, `SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? 0;
  const db = new Database(join(reg.dataDir, "registry.sqlite"), { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Runs `sql` on the registry's PostgreSQL database through a connection of its own. */
export async function sqlRows<R>(reg: TestRegistry, sql: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: reg.database });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as R[];
  } finally {
    await client.end();
  }
}

/** What a refused publish must leave exactly as it was: files under the temp root, objects in the bucket, blobs, rows. */
export interface StoredState {
  files: string[];
  /** Every key in the registry's bucket (none without one), blob or not. */
  objects: string[];
  blobs: string[];
  versions: number;
  packages: number;
}

export async function storedState(reg: TestRegistry): Promise<StoredState> {
  return {
    files: await filesUnder(reg.root),
    objects: await bucketKeys(reg),
    blobs: (await reg.app.registry.blobs.list()).sort(),
    versions: await countRows(reg, "versions"),
    packages: await countRows(reg, "packages"),
  };
}

/** Every key in the registry's bucket, read through a client of its own (the first 1,000: tests store fewer). */
export async function bucketKeys(reg: TestRegistry): Promise<string[]> {
  if (!reg.blobs) return [];
  const { bucket } = parseBlobsUrl(reg.blobs) as { bucket: string };
  const listed = await (await s3()).client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
}

/** A stream to give the registry's logger, and its lines parsed as JSON. */
export function logSink(): { stream: Writable; text: () => string; lines: () => Json[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const text = () => chunks.join("");
  return {
    stream,
    text,
    lines: () =>
      text()
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
