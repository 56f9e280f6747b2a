import { environmentLine, formatTable } from "../harness.js";
import { summarize } from "../install/stats.js";

/** The goal for `hookyard serve`, as the report states and checks it. */
const goalText = "serve p50 ≤ 2 ms including HTTP, and ≥ 10× faster than a python command hook";
const goalMs = 2;
const goalRatio = 10;

export interface Latency {
  p50: number;
  p90: number;
  p99: number;
  calls: number;
}

export interface Row {
  name: string;
  /** Undefined when the row could not run; `missing` says why. */
  latency?: Latency;
  missing?: string;
}

export function latency(samples: readonly number[]): Latency {
  const { median, p90 } = summarize(samples);
  const sorted = [...samples].sort((a, b) => a - b);
  // Nearest rank, as summarize's p90.
  const p99 = sorted[Math.max(Math.ceil(0.99 * sorted.length) - 1, 0)] ?? Number.NaN;
  return { p50: median, p90, p99, calls: samples.length };
}

function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  return `${Math.round(value).toLocaleString("en-US")} ms`;
}

export function latencyTable(rows: readonly Row[]): string {
  return formatTable([
    ["contender", "p50", "p90", "p99", "calls"],
    ...rows.map((row) =>
      row.latency
        ? [row.name, ms(row.latency.p50), ms(row.latency.p90), ms(row.latency.p99), String(row.latency.calls)]
        : [`${row.name}: ${row.missing ?? "not run"}`, "-", "-", "-", "0"],
    ),
  ]);
}

function ratio(python: Latency, serve: Latency): number {
  return python.p50 / serve.p50;
}

export function ratioLine(serve: Latency, python: Latency | undefined): string {
  return python
    ? `python/serve (p50): ${ratio(python, serve).toFixed(1)}x`
    : "python/serve (p50): - (no python3)";
}

export function goalLine(serve: Latency, python: Latency | undefined): string {
  const fastEnough = serve.p50 <= goalMs;
  if (!python) {
    return `goal: ${goalText}: NOT checked, no python3 on PATH (serve p50 ${ms(serve.p50)}, ${fastEnough ? "within" : "over"} ${goalMs} ms)`;
  }
  const times = ratio(python, serve);
  const met = fastEnough && times >= goalRatio;
  return `goal: ${goalText}: ${met ? "met" : "NOT met"} (serve p50 ${ms(serve.p50)}, python/serve ${times.toFixed(1)}x)`;
}

/** Issue 14's goals for the exec route, each against bare `node -e 0` spawned the same way. */
export function execGoalLines(rows: {
  warm: Latency;
  first: Latency;
  help: Latency;
  floor: Latency;
  python: Latency | undefined;
}): string[] {
  const times = (row: Latency) => row.p50 / rows.floor.p50;
  const line = (goal: string, met: boolean, detail: string) =>
    `goal: ${goal}: ${met ? "met" : "NOT met"} (${detail})`;
  const warm = times(rows.warm);
  const belowPython = rows.python === undefined || rows.warm.p50 < rows.python.p50;
  return [
    line(
      "warm exec p50 ≤ 1.3× bare node and below the python hook",
      warm <= 1.3 && belowPython,
      `exec ${ms(rows.warm.p50)} = ${warm.toFixed(2)}× node ${ms(rows.floor.p50)}; python ${rows.python ? ms(rows.python.p50) : "not run"}`,
    ),
    line(
      "first event (daemon start) ≤ 3× bare node",
      times(rows.first) <= 3,
      `${ms(rows.first.p50)} = ${times(rows.first).toFixed(2)}×`,
    ),
    line(
      "hookyard --help ≤ 1.5× bare node",
      times(rows.help) <= 1.5,
      `${ms(rows.help.p50)} = ${times(rows.help).toFixed(2)}×`,
    ),
  ];
}

export function footerLines(how: {
  rounds: string;
  python: string;
  loadBefore: string;
  loadAfter: string;
}): string[] {
  return [
    "event: a PreToolUse for Bash as that agent sends it (session_id, transcript_path, cwd, hook_event_name, permission_mode," +
      " tool_name, tool_input {command, description}, tool_use_id); calls alternate `rm -rf /`, checked to be denied with the" +
      " guard's reason, and `ls`, checked to get no decision. A wrong answer stops the bench.",
    `timed: process rows from spawn to exit (the input written to stdin, the start of node, sh or python included); serve rows from the POST to the answer's last byte, over one keep-alive connection (undici). ${how.rounds}, interleaved (each round runs every row's batch, in table order). A p99 over fewer than 100 calls is the slowest call.`,
    "exec: sh -c '<node> <hookyard>/bin/hookyard.js exec --profile claude PreToolUse', the command install-into writes, as that agent runs it. Warm: the workspace's" +
      " exec daemon is up (the client asks it over its unix socket); first event: before each call (not timed) the daemon the previous call started was let come up, then stopped, so none runs or loads;" +
      " the call answers in its own process, then starts one in the background; in-process: HOOKYARD_EXEC_ROUTE=inprocess, the chain in the exec process as before the daemon. Trusted: the guard in .hookyard/hooks/guard.ts (its" +
      " bundle cached); sandboxed: the same source packed with `hookyard pack`, published to a `hookyard registry serve` on 127.0.0.1 and installed with" +
      " `hookyard install --sandbox` (an isolate in the daemon's sandbox process). The builtin hooks (the audit log) run too, as in any workspace.",
    "floor: sh -c '<node> -e 0'; --help: sh -c '<node> <hookyard>/bin/hookyard.js --help'.",
    "serve: `hookyard serve --port 0` started once on each of those workspaces; POST /claude/PreToolUse with the bearer token from .hookyard/serve.token.",
    `sh: sh -c '<command>' (cat, case on the tool name, grep -E on the command); python: sh -c '<python3> guard.py' (json.load, re.search), ${how.python}.`,
    `load average ${how.loadBefore} before, ${how.loadAfter} after (1/5/15 min); ${environmentLine()}`,
  ];
}
