import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { BenchError } from "../../errors.js";
import type { Cleanup } from "../cleanup.js";
import { type HttpCall, sendOnce } from "../load/load.js";
import { mapLimit } from "../map-limit.js";
import type { PackedVersion } from "../packed-corpus.js";
import type { Peer } from "../peer.js";
import { type RunningServer, startServer } from "../server-process.js";
import type { VerdaccioInstall } from "./verdaccio-install.js";

/**
 * Verdaccio as the peer: its own config (local storage only, no uplinks, anyone may read, a
 * logged-in user may publish, logs at warn), its storage written straight to disk in the layout
 * its local-storage plugin reads (publishing 50,000 versions through its API would take about an
 * hour), and its npm API, used as npm uses it: `npm adduser`, then `npm publish` with the token.
 */

const writeConcurrency = 64;

export async function writeVerdaccioConfig(root: string): Promise<string> {
  const config = join(root, "config.yaml");
  // JSON is YAML: no YAML writer needed.
  const settings = {
    storage: join(root, "storage"),
    auth: { htpasswd: { file: join(root, "htpasswd") } },
    uplinks: {},
    packages: { "**": { access: "$all", publish: "$authenticated", unpublish: "$authenticated" } },
    max_body_size: "50mb",
    web: { enable: false },
    log: { type: "stdout", format: "pretty", level: "warn" },
  };
  await writeFile(config, `${JSON.stringify(settings, null, 2)}\n`);
  return config;
}

function tarballFile(name: string, version: string): string {
  return `${name}-${version}.tgz`;
}

function versionDocument(packed: PackedVersion, port: number): Record<string, unknown> {
  const { name } = packed.pkg;
  return {
    ...packed.manifest,
    _id: `${name}@${packed.version}`,
    dist: {
      shasum: packed.shasum,
      integrity: packed.integrity,
      tarball: `http://127.0.0.1:${port}/${name}/-/${tarballFile(name, packed.version)}`,
    },
  };
}

/** The package.json Verdaccio keeps per package, shaped like the one it writes after npm publish. */
function packageDocument(
  versions: readonly PackedVersion[],
  port: number,
  at: string,
): Record<string, unknown> {
  const latest = versions[versions.length - 1] as PackedVersion;
  const { name } = latest.pkg;
  return {
    name,
    versions: Object.fromEntries(versions.map((v) => [v.version, versionDocument(v, port)])),
    time: {
      modified: at,
      created: at,
      ...Object.fromEntries(versions.map((v) => [v.version, at])),
    },
    users: {},
    "dist-tags": { latest: latest.version },
    _uplinks: {},
    _distfiles: {},
    _attachments: Object.fromEntries(
      versions.map((v) => [tarballFile(name, v.version), { shasum: v.shasum, version: v.version }]),
    ),
    _rev: `${versions.length}-${latest.shasum.slice(0, 16)}`,
    _id: name,
    readme: latest.readme,
  };
}

export async function seedVerdaccio(
  storage: string,
  corpus: readonly PackedVersion[][],
  port: number,
  signal?: AbortSignal,
): Promise<void> {
  const at = new Date().toISOString();
  await mkdir(storage, { recursive: true });
  await mapLimit(
    corpus,
    writeConcurrency,
    async (versions) => {
      const name = (versions[0] as PackedVersion).pkg.name;
      const dir = join(storage, name);
      await mkdir(dir);
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify(packageDocument(versions, port, at), null, "\t"),
      );
      for (const v of versions) await writeFile(join(dir, tarballFile(name, v.version)), v.tarball);
    },
    signal,
  );
  const list = corpus.map((versions) => (versions[0] as PackedVersion).pkg.name);
  await writeFile(join(storage, ".verdaccio-db.json"), JSON.stringify({ list }));
}

export async function startVerdaccio(
  install: VerdaccioInstall,
  config: string,
  root: string,
  port: number,
  cleanup: Cleanup,
): Promise<RunningServer> {
  return startServer(
    {
      label: "Verdaccio",
      command: process.execPath,
      args: [install.bin, "--config", config, "--listen", `127.0.0.1:${port}`],
      cwd: root,
      port,
      readyPath: "/-/ping",
    },
    cleanup,
  );
}

/** What `npm adduser` does: registers a user in Verdaccio's htpasswd file and gets its token back. */
export async function addVerdaccioUser(port: number): Promise<string> {
  const name = "bench";
  const answer = await sendOnce(port, {
    method: "PUT",
    path: `/-/user/org.couchdb.user:${name}`,
    headers: { "content-type": "application/json" },
    body: Buffer.from(
      JSON.stringify({
        _id: `org.couchdb.user:${name}`,
        name,
        password: randomBytes(12).toString("base64url"),
        type: "user",
        roles: [],
        date: new Date().toISOString(),
      }),
    ),
  });
  const token =
    answer.status === 201 ? (JSON.parse(answer.body.toString()) as { token?: unknown }).token : undefined;
  if (typeof token !== "string") {
    throw new BenchError(
      "BENCH_ERR_CHECK",
      `Verdaccio refused to add a user (${answer.status}): ${answer.body}`,
    );
  }
  return token;
}

/** What `npm publish` sends: the version document and the tarball as a base64 attachment. */
function publishCall(packed: PackedVersion, port: number, token: string): HttpCall {
  const { name } = packed.pkg;
  const file = tarballFile(name, packed.version);
  const body = {
    _id: name,
    name,
    description: packed.pkg.description,
    "dist-tags": { latest: packed.version },
    versions: { [packed.version]: { ...versionDocument(packed, port), readme: packed.readme } },
    access: null,
    _attachments: {
      [file]: {
        content_type: "application/octet-stream",
        data: packed.tarball.toString("base64"),
        length: packed.tarball.length,
      },
    },
  };
  return {
    method: "PUT",
    path: `/${encodeURIComponent(name)}`,
    headers: {
      "content-type": "application/json",
      "npm-command": "publish",
      authorization: `Bearer ${token}`,
    },
    body: Buffer.from(JSON.stringify(body)),
  };
}

export function verdaccioPeer(server: RunningServer, token: string): Peer {
  return {
    label: "Verdaccio",
    server,
    servers: [server],
    metadataPath: (name) => `/${encodeURIComponent(name)}`,
    tarballPath: (name, version) => `/${encodeURIComponent(name)}/-/${tarballFile(name, version)}`,
    searchPath: (query) => `/-/v1/search?text=${encodeURIComponent(query)}&size=20`,
    publishCall: (packed) => publishCall(packed, server.port, token),
  };
}
