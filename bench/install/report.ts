import { environmentLine, formatTable } from "../harness.js";
import type { Summary } from "./stats.js";

/** The goal for `hookyard install`, as the report states and checks it. */
const goalText = "hookyard install ≤ 300 ms median, and faster than npm";
const goalMs = 300;

export interface Row extends Summary {
  label: string;
}

export interface InstallResults {
  hookyard: Row;
  npm: Row;
  nodeFloor: Row;
  npmFloor: Row;
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value).toLocaleString("en-US")} ms` : "-";
}

/** One row per contender; an install's last column is its median less its tool's start-up median. */
export function installTable(results: InstallResults): string {
  const cells = (row: Row, floor?: Row) => [
    row.label,
    ms(row.median),
    ms(row.p90),
    ms(row.min),
    floor ? ms(row.median - floor.median) : "-",
  ];
  return formatTable([
    ["", "median", "p90", "min", "median - start-up"],
    cells(results.hookyard, results.nodeFloor),
    cells(results.npm, results.npmFloor),
    cells(results.nodeFloor),
    cells(results.npmFloor),
  ]);
}

/** npm's median over hookyard's: how many times faster hookyard installs. */
function npmOverHookyard(results: InstallResults): number {
  return results.npm.median / results.hookyard.median;
}

export function goalLine(results: InstallResults): string {
  const ratio = npmOverHookyard(results);
  const met = results.hookyard.median <= goalMs && ratio > 1;
  return `goal: ${goalText}: ${met ? "met" : "NOT met"} (median ${ms(results.hookyard.median)}, npm/hookyard ${ratio.toFixed(2)}x)`;
}

export function footerLines(how: {
  packageLine: string;
  hookyardCommand: string;
  npmCommand: string;
  rounds: string;
  loadBefore: string;
  loadAfter: string;
}): string[] {
  return [
    how.packageLine,
    `timed: wall time from spawn to exit, node's start included; ${how.rounds}, interleaved (each round runs every row once, in table order).`,
    `hookyard: a fresh empty workspace (cold store) each run; ${how.hookyardCommand}; then hookyard.lock and the store folder are checked.`,
    `npm: a fresh project with a bare package.json and a fresh empty cache each run; ${how.npmCommand}; then node_modules and package-lock.json are checked.`,
    "Both registries run as their own processes on 127.0.0.1, logs at warn, the same tarball published to each over HTTP; start-up rows are the floor each tool pays before it does anything.",
    `load average ${how.loadBefore} before, ${how.loadAfter} after (1/5/15 min); ${environmentLine()}`,
  ];
}
