import { loadavg } from "node:os";
import { environmentLine, formatTable } from "../harness.js";
import type { LoadResult } from "./load/load.js";
import {
  ceilingBodyBytes,
  durationMs,
  readConnections,
  type ScenarioResults,
  searchConnections,
  searchMinCalls,
  searchOvertimeMs,
  warmupMaxMs,
  warmupMs,
} from "./scenarios.js";

/** One column of the table: a peer's short name, what it is, and its results. */
export interface Column {
  /** The column header. */
  short: string;
  /** What it is, for the legend and the goal lines. */
  label: string;
  results: ScenarioResults;
}

interface Row {
  label: string;
  pick: (results: ScenarioResults) => number;
  /** Throughput rows: more is better. Latency and CPU rows: less is better. */
  kind: "rate" | "latency" | "cpu";
  /** Shows how many times better than Verdaccio beside each hookyard value. */
  ratio?: boolean;
}

const rows: Row[] = [
  { label: "metadata GET req/s", pick: (r) => r.metadata.perSecond, kind: "rate", ratio: true },
  { label: "metadata GET p99", pick: (r) => r.metadata.p99Ms, kind: "latency" },
  { label: "metadata server CPU/req", pick: (r) => r.metadata.serverCpuMicros, kind: "cpu", ratio: true },
  { label: "tarball GET req/s", pick: (r) => r.tarball.perSecond, kind: "rate", ratio: true },
  { label: "tarball server CPU/req", pick: (r) => r.tarball.serverCpuMicros, kind: "cpu", ratio: true },
  { label: "search p50", pick: (r) => r.search.p50Ms, kind: "latency" },
  { label: "search p99", pick: (r) => r.search.p99Ms, kind: "latency" },
  { label: "publish p50", pick: (r) => r.publish.p50Ms, kind: "latency" },
];

function formatValue(value: number, kind: Row["kind"]): string {
  if (!Number.isFinite(value)) return "-";
  if (kind === "rate") return `${Math.round(value).toLocaleString("en-US")}/s`;
  if (kind === "cpu") return `${Math.round(value)} µs`;
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

/** How many times better `ours` is: higher throughput, or lower latency and CPU. */
function ratioOf(ours: number, peer: number, kind: Row["kind"]): number {
  return kind === "rate" ? ours / peer : peer / ours;
}

function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(ratio < 10 ? 2 : 1)}x` : "-";
}

/** Every hookyard column, then Verdaccio's; hookyard's rate and CPU cells say their ratio to Verdaccio. */
export function registryTable(columns: readonly Column[], verdaccio: Column): string {
  const table = [["", ...columns.map((c) => c.short), verdaccio.short]];
  for (const row of rows) {
    const theirs = row.pick(verdaccio.results);
    const cells = columns.map((column) => {
      const ours = row.pick(column.results);
      const value = formatValue(ours, row.kind);
      return row.ratio ? `${value} (${formatRatio(ratioOf(ours, theirs, row.kind))})` : value;
    });
    table.push([row.label, ...cells, formatValue(theirs, row.kind)]);
  }
  return formatTable(table);
}

function goal(what: string, met: boolean, figures: string): string {
  return `  ${met ? "met" : "NOT met"}: ${what} (${figures})`;
}

const rate = (result: LoadResult) => formatValue(result.perSecond, "rate");
const ms = (value: number) => formatValue(value, "latency");

/**
 * The goals, one line each with its figures: issue 4's for the embedded registry (sqlite + files
 * against Verdaccio), issue 18's for every PostgreSQL column (against Verdaccio and the embedded one).
 */
export function goalLines(embedded: Column, postgres: readonly Column[], verdaccio: Column): string[] {
  const e = embedded.results;
  const v = verdaccio.results;
  const metadataRatio = e.metadata.perSecond / v.metadata.perSecond;
  const cpuRatio = v.metadata.serverCpuMicros / e.metadata.serverCpuMicros;
  const tarballRatio = e.tarball.perSecond / v.tarball.perSecond;
  const tarballCpuRatio = v.tarball.serverCpuMicros / e.tarball.serverCpuMicros;
  const lines = [
    `goals of ${embedded.label} (issue 4):`,
    goal(
      "metadata GET >= 10x Verdaccio and >= 12,000/s",
      metadataRatio >= 10 && e.metadata.perSecond >= 12_000,
      `${rate(e.metadata)}, ${formatRatio(metadataRatio)}`,
    ),
    goal("metadata server CPU/req >= 10x less", cpuRatio >= 10, formatRatio(cpuRatio)),
    goal(
      "tarball GET >= 5x Verdaccio",
      tarballRatio >= 5,
      `${rate(e.tarball)}, ${formatRatio(tarballRatio)}`,
    ),
    goal("tarball server CPU/req >= 5x less", tarballCpuRatio >= 5, formatRatio(tarballCpuRatio)),
    goal("search p50 <= 5 ms", e.search.p50Ms <= 5, ms(e.search.p50Ms)),
    goal("publish p50 <= 15 ms", e.publish.p50Ms <= 15, ms(e.publish.p50Ms)),
  ];
  for (const column of postgres) {
    const r = column.results;
    const toVerdaccio = r.metadata.perSecond / v.metadata.perSecond;
    const toEmbedded = r.metadata.perSecond / e.metadata.perSecond;
    lines.push(
      `goals of ${column.label} (issue 18):`,
      goal(
        `metadata GET >= 5x Verdaccio and >= 0.5x ${embedded.short}`,
        toVerdaccio >= 5 && toEmbedded >= 0.5,
        `${rate(r.metadata)}: ${formatRatio(toVerdaccio)} Verdaccio, ${formatRatio(toEmbedded)} ${embedded.short}`,
      ),
      goal("publish p50 <= 25 ms", r.publish.p50Ms <= 25, ms(r.publish.p50Ms)),
      goal("search p50 <= 10 ms", r.search.p50Ms <= 10, ms(r.search.p50Ms)),
    );
  }
  return lines;
}

/** How it was measured, what each server ran with, the calls counted and any failures, and the machine. */
export function footerLines(
  columns: readonly Column[],
  ceiling: LoadResult,
  queryCount: number,
  notes: readonly string[],
): string[] {
  const names = Object.keys(columns[0]?.results ?? {}) as Array<keyof ScenarioResults>;
  const counts = names
    .map((name) => `${name} ${columns.map((c) => c.results[name].calls).join("/")}`)
    .join(", ");
  const lines = [
    `columns: ${columns.map((c) => `${c.short} = ${c.label}`).join("; ")}.`,
    `(Nx): how many times hookyard is better than Verdaccio (more req/s, or less CPU). Each row: a warm-up of ${warmupMs / 1000} s` +
      ` (reads: after each package document, or each tarball, was asked for once, or ${warmupMaxMs / 1000} s), then ${durationMs / 1000} s; reads over ${readConnections} keep-alive connections, paths spread over every package;` +
      ` search over ${searchConnections} connections, ${queryCount} queries mixing names, words and word pairs, going` +
      ` on past ${durationMs / 1000} s until ${searchMinCalls} answers (at most ${searchOvertimeMs / 1000} s more,` +
      " since Verdaccio reads every package per query); publish one at a time, a new version of a seeded package.",
    "The load generator is one Node process speaking HTTP through undici, on the same cores as the servers under" +
      " test (and PostgreSQL, and s3rver), the same for every peer:" +
      " the ratio is the fair number, absolute rates understate every server. Against a bare node:http server" +
      ` answering ${ceilingBodyBytes.toLocaleString("en-US")} bytes it reaches ${formatValue(ceiling.perSecond, "rate")}` +
      ` (p99 ${formatValue(ceiling.p99Ms, "latency")}): no server can score more here. The server CPU/req rows` +
      " (user + system time of the server's processes over the measured window, from /proc, per call; not" +
      " PostgreSQL's or s3rver's) show what each server spends when the generator caps req/s.",
    "hookyard: buildRegistry as `hookyard registry serve` runs it (--data, --database, --blobs), logs at warn, publish rate" +
      " limit raised for the bench; publish = PUT /v1/packages/:name/:version with a publish-scope bearer token." +
      " Verdaccio: local storage, no uplinks, logs at warn; publish as npm does after `npm adduser` (PUT /<name>" +
      " with the tarball as a base64 attachment and the token, which Verdaccio checks against its htpasswd file).",
    ...notes,
    `measured calls (${columns.map((c) => c.short).join("/")}): ${counts}`,
  ];
  for (const column of columns) {
    for (const name of names) {
      const result: LoadResult = column.results[name];
      if (result.errors > 0) {
        lines.push(`${column.short} ${name}: ${result.errors} failed call(s), first: ${result.firstError}`);
      }
    }
  }
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  lines.push(`load average ${load} (1/5/15 min); ${environmentLine()}`);
  return lines;
}
