import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Cleanup } from "../cleanup.js";
import type { PackedVersion } from "../packed-corpus.js";
import type { Peer } from "../peer.js";
import { type RunningServer, startServer } from "../server-process.js";

/** Where one registry keeps its data: the data dir, and the database and blobs URLs when not in it. */
export interface HookyardStorage {
  dataDir: string;
  database?: string;
  blobs?: string;
  /** For the server's environment (S3 keys). */
  env?: Record<string, string>;
}

/** hookyard's registry in a process of its own (hookyard-serve.ts, compiled beside this file). */
export async function startHookyard(
  label: string,
  storage: HookyardStorage,
  port: number,
  cleanup: Cleanup,
): Promise<RunningServer> {
  const script = fileURLToPath(new URL("./hookyard-serve.js", import.meta.url));
  const args = ["--no-node-snapshot", script, "--data", storage.dataDir, "--port", String(port)];
  if (storage.database) args.push("--database", storage.database);
  if (storage.blobs) args.push("--blobs", storage.blobs);
  return startServer(
    {
      label,
      command: process.execPath,
      args,
      cwd: dirname(script),
      port,
      readyPath: "/v1/keys",
      ...(storage.env ? { env: storage.env } : {}),
    },
    cleanup,
  );
}

/** One registry as a peer: one process, or several serving one registry (`label` says which). */
export function hookyardPeer(
  server: RunningServer | readonly RunningServer[],
  token: string,
  label = "hookyard",
): Peer {
  const servers = Array.isArray(server) ? server : [server as RunningServer];
  const pkg = (name: string) => `/v1/packages/${encodeURIComponent(name)}`;
  return {
    label,
    server: servers[0] as RunningServer,
    servers,
    metadataPath: pkg,
    tarballPath: (name, version) => `${pkg(name)}/${encodeURIComponent(version)}/tarball`,
    searchPath: (query) => `/v1/search?q=${encodeURIComponent(query)}&limit=20`,
    publishCall: (packed: PackedVersion) => ({
      method: "PUT",
      path: `${pkg(packed.pkg.name)}/${encodeURIComponent(packed.version)}`,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: packed.tarball,
    }),
  };
}
