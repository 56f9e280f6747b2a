import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Cleanup } from "./cleanup.js";
import type { HttpCall, LoadResult } from "./load/load.js";
import { runLoadInThread } from "./load/load-thread.js";
import type { PackedVersion } from "./packed-corpus.js";
import type { Peer } from "./peer.js";
import { freePort, startServer } from "./server-process.js";

/**
 * The four measurements, each run against every peer in turn with the same generator settings:
 * reads spread over all packages (a stride that is coprime with the package count visits every
 * package before repeating one), search over a fixed list of queries, publish one at a time.
 */

export const readConnections = 32;
/**
 * Verdaccio's search reads every stored package per query (about a second each at 10,000): at 32
 * at once its answers would take half a minute. Search latency is measured at a lighter load.
 */
export const searchConnections = 4;
export const searchMinCalls = 20;
export const searchOvertimeMs = 30_000;
export const warmupMs = 1_000;
/**
 * The read warm-up visits every document or tarball once, but for no longer than this. It must
 * cover a cold pass over the 10,000 documents built from PostgreSQL on a loaded machine (about
 * 12 s at 800/s here): at 5 s the measured window was mostly cache misses (PostgreSQL columns
 * at 800/s instead of 15,000/s). Only the S3 tarball columns, a few hundred a second, reach it.
 */
export const warmupMaxMs = 15_000;
/** HOOKYARD_BENCH_REGISTRY_SECONDS shortens the measured window (a quick run while developing). */
export const durationMs = Number(process.env.HOOKYARD_BENCH_REGISTRY_SECONDS ?? 5) * 1_000;
/** About the size of a hookyard package document with five versions. */
export const ceilingBodyBytes = 5_000;

const stride = 7_919;
const ok200 = [200];
const created = [200, 201];

export interface ScenarioResults {
  metadata: LoadResult;
  tarball: LoadResult;
  search: LoadResult;
  publish: LoadResult;
}

export interface Workload {
  corpus: readonly PackedVersion[][];
  queries: readonly string[];
  /** New versions to publish, used up in order; each peer gets the same list. */
  publishes: readonly PackedVersion[];
}

export async function measurePeers(
  peers: readonly Peer[],
  work: Workload,
  log: (line: string) => void,
  signal: AbortSignal,
): Promise<Map<Peer, ScenarioResults>> {
  const { corpus, queries, publishes } = work;
  const at = (i: number) => corpus[(i * stride) % corpus.length] as PackedVersion[];
  const common = { warmupMs, warmupMaxMs, durationMs };
  const server = (peer: Peer) => ({
    ports: peer.servers.map((s) => s.port),
    serverPids: peer.servers.map((s) => s.pid),
  });
  // Reads warm up until each document, or each tarball, was asked for once: a registry serves the
  // same bytes again and again, and a cold first pass is not its steady state.
  const versionCount = corpus.reduce((sum, versions) => sum + versions.length, 0);
  const get = (path: string): HttpCall => ({ method: "GET", path });
  const scenarios = {
    metadata: (peer: Peer) =>
      runLoadInThread(
        {
          ...common,
          ...server(peer),
          warmupCalls: corpus.length,
          connections: readConnections,
          calls: corpus.map((_, i) => get(peer.metadataPath((at(i)[0] as PackedVersion).pkg.name))),
          okStatuses: ok200,
        },
        signal,
      ),
    tarball: (peer: Peer) =>
      runLoadInThread(
        {
          ...common,
          ...server(peer),
          warmupCalls: versionCount,
          connections: readConnections,
          calls: Array.from({ length: versionCount }, (_, i) => {
            const versions = at(i);
            // Each pass over the packages takes the next version of each (not i % 5, which the
            // stride would tie to one version per package), so the warm-up asks for every tarball once.
            const v = versions[Math.floor(i / corpus.length) % versions.length] as PackedVersion;
            return get(peer.tarballPath(v.pkg.name, v.version));
          }),
          okStatuses: ok200,
        },
        signal,
      ),
    search: (peer: Peer) =>
      runLoadInThread(
        {
          ...common,
          ports: server(peer).ports,
          connections: searchConnections,
          minCalls: searchMinCalls,
          overtimeMs: searchOvertimeMs,
          calls: queries.map((query) => get(peer.searchPath(query))),
          okStatuses: ok200,
        },
        signal,
      ),
    publish: (peer: Peer) => {
      // Bodies are built before the clock starts, so only the server's work is timed.
      const calls = publishes.map((packed) => peer.publishCall(packed));
      return runLoadInThread(
        {
          ...common,
          ports: server(peer).ports,
          connections: 1,
          maxCalls: calls.length,
          calls,
          okStatuses: created,
        },
        signal,
      );
    },
  };
  const results = new Map<Peer, Partial<ScenarioResults>>(peers.map((peer) => [peer, {}]));
  for (const [name, scenario] of Object.entries(scenarios) as Array<
    [keyof ScenarioResults, (peer: Peer) => Promise<LoadResult>]
  >) {
    for (const peer of peers) {
      signal.throwIfAborted();
      const result = await scenario(peer);
      (results.get(peer) as Partial<ScenarioResults>)[name] = result;
      log(`${name}, ${peer.label}: ${describe(result)}`);
    }
  }
  return results as Map<Peer, ScenarioResults>;
}

function describe(result: LoadResult): string {
  const failed = result.errors > 0 ? `, ${result.errors} failed` : "";
  return `${result.calls} calls, ${Math.round(result.perSecond)}/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms${failed}`;
}

/** The generator against a bare node:http server (ceiling-server.ts): the most a server can score here. */
export async function measureCeiling(cleanup: Cleanup, log: (line: string) => void): Promise<LoadResult> {
  const script = fileURLToPath(new URL("./ceiling-server.js", import.meta.url));
  const port = await freePort();
  const server = await startServer(
    {
      label: "bare node:http server",
      command: process.execPath,
      args: [script, "--port", String(port), "--bytes", String(ceilingBodyBytes)],
      cwd: dirname(script),
      port,
      readyPath: "/",
    },
    cleanup,
  );
  try {
    const result = await runLoadInThread(
      {
        ports: [port],
        connections: readConnections,
        warmupMs,
        durationMs,
        calls: [{ method: "GET", path: "/" }],
        okStatuses: ok200,
      },
      cleanup.signal,
    );
    log(`generator ceiling, bare node:http server: ${describe(result)}`);
    return result;
  } finally {
    await server.stop();
  }
}
