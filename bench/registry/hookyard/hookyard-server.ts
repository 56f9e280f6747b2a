import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Cleanup } from "../cleanup.js";
import type { PackedVersion } from "../packed-corpus.js";
import type { Peer } from "../peer.js";
import { type RunningServer, startServer } from "../server-process.js";

/** hookyard's registry in a process of its own (hookyard-serve.ts, compiled beside this file). */
export async function startHookyard(dataDir: string, port: number, cleanup: Cleanup): Promise<RunningServer> {
  const script = fileURLToPath(new URL("./hookyard-serve.js", import.meta.url));
  return startServer(
    {
      label: "hookyard registry",
      command: process.execPath,
      args: ["--no-node-snapshot", script, "--data", dataDir, "--port", String(port)],
      cwd: dirname(script),
      port,
      readyPath: "/v1/keys",
    },
    cleanup,
  );
}

export function hookyardPeer(server: RunningServer, token: string): Peer {
  const pkg = (name: string) => `/v1/packages/${encodeURIComponent(name)}`;
  return {
    label: "hookyard",
    server,
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
