import type { HttpCall } from "./load/load.js";
import type { PackedVersion } from "./packed-corpus.js";
import type { RunningServer } from "./server-process.js";

/**
 * One registry under test, as the load generator sees it: its processes (one, or several serving
 * one registry), where things are and how to publish.
 */
export interface Peer {
  label: string;
  /** The first (or only) process. */
  server: RunningServer;
  /** Every process serving it; the load generator spreads requests over them. */
  servers: readonly RunningServer[];
  metadataPath(name: string): string;
  tarballPath(name: string, version: string): string;
  searchPath(query: string): string;
  publishCall(packed: PackedVersion): HttpCall;
}
