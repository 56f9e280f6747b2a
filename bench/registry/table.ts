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
  warmupMs,
} from "./scenarios.js";

/** The goals for hookyard, row by row; rows without a goal are shown for context. */
interface Row {
  label: string;
  pick: (results: ScenarioResults) => number;
  /** Throughput rows: more is better. Latency and CPU rows: less is better. */
  kind: "rate" | "latency" | "cpu";
  goal?: { text: string; met: (ours: number, peer: number) => boolean };
}

const rows: Row[] = [
  {
    label: "metadata GET req/s",
    pick: (r) => r.metadata.perSecond,
    kind: "rate",
    goal: { text: ">= 10x and >= 12,000/s", met: (ours, peer) => ours >= 10 * peer && ours >= 12_000 },
  },
  { label: "metadata GET p99", pick: (r) => r.metadata.p99Ms, kind: "latency" },
  {
    label: "metadata server CPU/req",
    pick: (r) => r.metadata.serverCpuMicros,
    kind: "cpu",
    goal: { text: "(>= 10x)", met: (ours, peer) => peer >= 10 * ours },
  },
  {
    label: "tarball GET req/s",
    pick: (r) => r.tarball.perSecond,
    kind: "rate",
    goal: { text: ">= 5x", met: (ours, peer) => ours >= 5 * peer },
  },
  {
    label: "tarball server CPU/req",
    pick: (r) => r.tarball.serverCpuMicros,
    kind: "cpu",
    goal: { text: "(>= 5x)", met: (ours, peer) => peer >= 5 * ours },
  },
  {
    label: "search p50",
    pick: (r) => r.search.p50Ms,
    kind: "latency",
    goal: { text: "<= 5 ms", met: (ours) => ours <= 5 },
  },
  { label: "search p99", pick: (r) => r.search.p99Ms, kind: "latency" },
  {
    label: "publish p50",
    pick: (r) => r.publish.p50Ms,
    kind: "latency",
    goal: { text: "<= 15 ms", met: (ours) => ours <= 15 },
  },
];

function formatValue(value: number, kind: Row["kind"]): string {
  if (!Number.isFinite(value)) return "-";
  if (kind === "rate") return `${Math.round(value).toLocaleString("en-US")}/s`;
  if (kind === "cpu") return `${Math.round(value)} µs`;
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

/** How many times better hookyard is: higher throughput, or lower latency. */
function formatRatio(ours: number, peer: number, kind: Row["kind"]): string {
  const ratio = kind === "rate" ? ours / peer : peer / ours;
  return Number.isFinite(ratio) ? `${ratio.toFixed(ratio < 10 ? 2 : 1)}x` : "-";
}

export function registryTable(ours: ScenarioResults, peer: ScenarioResults): string {
  const table = [["", "hookyard", "Verdaccio", "ratio", "goal", "met?"]];
  for (const row of rows) {
    const a = row.pick(ours);
    const b = row.pick(peer);
    const met = row.goal ? (row.goal.met(a, b) ? "yes" : "NO") : "-";
    table.push([
      row.label,
      formatValue(a, row.kind),
      formatValue(b, row.kind),
      formatRatio(a, b, row.kind),
      row.goal?.text ?? "-",
      met,
    ]);
  }
  return formatTable(table);
}

/** How it was measured, what each server ran with, the calls counted and any failures, and the machine. */
export function footerLines(
  ours: ScenarioResults,
  peer: ScenarioResults,
  ceiling: LoadResult,
  queryCount: number,
): string[] {
  const names = Object.keys(ours) as Array<keyof ScenarioResults>;
  const counts = names.map((name) => `${name} ${ours[name].calls}/${peer[name].calls}`).join(", ");
  const lines = [
    `ratio: how many times hookyard is better (more req/s, or less latency). Each row: a warm-up of ${warmupMs / 1000} s` +
      ` (reads: after each package document, or each tarball, was asked for once), then ${durationMs / 1000} s; reads over ${readConnections} keep-alive connections, paths spread over every package;` +
      ` search over ${searchConnections} connections, ${queryCount} queries mixing names, words and word pairs, going` +
      ` on past ${durationMs / 1000} s until ${searchMinCalls} answers (at most ${searchOvertimeMs / 1000} s more,` +
      " since Verdaccio reads every package per query); publish one at a time, a new version of a seeded package.",
    "The load generator is one Node process speaking HTTP through undici, on the same cores as the server under" +
      " test, the same for both peers:" +
      " the ratio is the fair number, absolute rates understate both servers. Against a bare node:http server" +
      ` answering ${ceilingBodyBytes.toLocaleString("en-US")} bytes it reaches ${formatValue(ceiling.perSecond, "rate")}` +
      ` (p99 ${formatValue(ceiling.p99Ms, "latency")}): no server can score more here. The server CPU/req rows` +
      " (user + system time of the server process over the measured window, from /proc, per call) show what each" +
      " server spends when the generator caps req/s; their goal is the req/s row's ratio, in brackets.",
    "hookyard: buildRegistry as `hookyard registry serve` runs it (sqlite + blob dir), logs at warn, publish rate" +
      " limit raised for the bench; publish = PUT /v1/packages/:name/:version with a publish-scope bearer token." +
      " Verdaccio: local storage, no uplinks, logs at warn; publish as npm does after `npm adduser` (PUT /<name>" +
      " with the tarball as a base64 attachment and the token, which Verdaccio checks against its htpasswd file).",
    `measured calls (hookyard/Verdaccio): ${counts}`,
  ];
  for (const [label, results] of [
    ["hookyard", ours],
    ["Verdaccio", peer],
  ] as const) {
    for (const name of names) {
      const result: LoadResult = results[name];
      if (result.errors > 0) {
        lines.push(`${label} ${name}: ${result.errors} failed call(s), first: ${result.firstError}`);
      }
    }
  }
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  lines.push(`load average ${load} (1/5/15 min); ${environmentLine()}`);
  return lines;
}
