import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { BenchError } from "../errors.js";
import type { Cleanup } from "../registry/cleanup.js";
import { hookyardPeer } from "../registry/hookyard/hookyard-server.js";
import type { Peer } from "../registry/peer.js";
import { freePort, type RunningServer, startServer } from "../registry/server-process.js";

/** The `hookyard` bin as users run it (from dist/bench/install/ back to the repo root). */
export const hookyardBin = fileURLToPath(new URL("../../../bin/hookyard.js", import.meta.url));

/** The first start on an empty data dir prints the admin token once, on stderr, right after listening. */
const adminTokenLine = /admin token \(shown this once; store it now\): (\S+)/;
const tokenWaitMs = 5_000;

/**
 * hookyard's registry as a user starts it: `hookyard registry serve` from the built bin, on a free
 * port, logs at warn (Verdaccio's config has the same level), publishing with the admin token it
 * prints on its first start.
 */
export async function startHookyardRegistry(dataDir: string, cleanup: Cleanup): Promise<Peer> {
  if (!existsSync(hookyardBin)) {
    throw new BenchError(
      "INSTALL_BENCH_ERR_COMMAND",
      `${hookyardBin} is missing: is this a checkout of hookyard?`,
    );
  }
  const port = await freePort();
  const server = await startServer(
    {
      label: "hookyard registry",
      command: process.execPath,
      args: [
        "--no-node-snapshot",
        hookyardBin,
        "registry",
        "serve",
        "--port",
        String(port),
        "--data",
        dataDir,
        "--log-level",
        "warn",
      ],
      cwd: dataDir,
      port,
      readyPath: "/v1/keys",
    },
    cleanup,
  );
  return hookyardPeer(server, await adminToken(server));
}

/** The server may answer its ready check before this process has read the token line from the pipe. */
async function adminToken(server: RunningServer): Promise<string> {
  for (let waited = 0; waited <= tokenWaitMs; waited += 20) {
    const token = adminTokenLine.exec(server.output())?.[1];
    if (token) return token;
    await sleep(20);
  }
  throw new BenchError(
    "INSTALL_BENCH_ERR_ADMIN_TOKEN",
    `hookyard registry serve printed no admin token line within ${tokenWaitMs / 1000} s (was its data dir not empty?); it printed:\n${server.output().trim()}`,
  );
}
