/**
 * What hooks cost a real Claude Code session per Bash call (issue 17): the pinned binary
 * (bench/agents/claude-code.ts, installed into ~/.cache/hookyard/agents/ on first use) against a
 * fake model on 127.0.0.1 that asks for 10 Bash calls, or for none, with no hooks, with a sh guard
 * (one PreToolUse command hook, what users write today), with sh in both slots install-into fills
 * for a tool call (PreToolUse and PostToolUse), and with hookyard on each route (`install-into
 * claude`: exec, the default; `--http` to a running serve). A call's cost is the session's time
 * with 10 calls less its time with none, over 10, less the same for no hooks: the agent's start-up,
 * the model and Bash itself are taken out. Every hooked session is checked: its guard ran once per
 * call. Goal: the default route adds at most 2x what the sh guard adds.
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { stopDaemon } from "../adapters/daemon/status.js";
import { execCommand } from "../cli/agent-settings/install-into.js";
import { runHookProcess } from "./agent-compat/hook-process.js";
import { startServe } from "./agent-compat/serve-process.js";
import { claudeCodePackage, installClaudeCode, runClaude } from "./agents/claude-code.js";
import { type Step, startAnthropicModel } from "./agents/fake-model/anthropic.js";
import { BenchError } from "./errors.js";
import { environmentLine, formatTable } from "./harness.js";
import { childEnv } from "./install/child-env.js";
import type { Contender } from "./install/contenders.js";
import { runRounds } from "./install/rounds.js";
import { summarize } from "./install/stats.js";
import { withCleanup } from "./registry/cleanup.js";

const callsPerSession = 10;
const warmupRounds = 1;
const timedRounds = 8;
const sessionTimeoutMs = 180_000;

type RouteId = "none" | "sh" | "sh-both" | "exec" | "http";

interface Route {
  id: RouteId;
  name: string;
  /** Hook processes (or requests) the agent runs per Bash call. */
  perCall: string;
  /** Files of the workspace, and the env its sessions run with. */
  root: string;
  env: NodeJS.ProcessEnv;
  /** True when the guard writes a line to calls.log per Bash call. */
  counts: boolean;
}

/** The sh guard: count the call, then deny `rm -rf /` the way a command hook does (exit 2). */
const shGuard = [
  "input=$(cat)",
  `printf 'x\\n' >> "$CLAUDE_PROJECT_DIR/calls.log"`,
  `if printf '%s' "$input" | grep -Eq '"command":"rm -rf /"'; then echo 'denied' >&2; exit 2; fi`,
].join("; ");
const shAfter = "cat > /dev/null";

/** hookyard's guard, a trusted workspace hook: counts each Bash call, denies `rm -rf /`. */
const hookyardGuard = (log: string) => `import { appendFileSync } from "node:fs";
export default {
  name: "bench-guard",
  matcher: { tool: "^bash$" },
  on: {
    tool_before(ctx) {
      appendFileSync(${JSON.stringify(log)}, "x\\n");
      if (ctx.args.command === "rm -rf /") return { block: "denied" };
    },
  },
};
`;

function shSettings(both: boolean): string {
  const entry = (command: string) => [{ matcher: "Bash", hooks: [{ type: "command", command }] }];
  const hooks = both
    ? { PreToolUse: entry(shGuard), PostToolUse: entry(shAfter) }
    : { PreToolUse: entry(shGuard) };
  return `${JSON.stringify({ hooks }, null, 2)}\n`;
}

async function hookyardCli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const answer = await runHookProcess(
    { command: "sh", args: ["-c", `${execCommand()} ${args.join(" ")}`], cwd, env },
    "",
    AbortSignal.timeout(60_000),
  );
  if (answer.exitCode !== 0) {
    throw new BenchError("AGENT_BENCH_ERR_SETUP", `hookyard ${args.join(" ")} failed: ${answer.stderr}`);
  }
}

const bash = (i: number): Step => ({
  toolUse: { name: "Bash", input: { command: `echo bench-call-${i}`, description: "say which call" } },
});

/** One `claude -p` session with `calls` Bash calls, checked: every call ran and was seen by the guard. */
function sessionContender(claudeBinary: string, route: Route, calls: number): Contender {
  return {
    label: `${route.id} x${calls}`,
    async once() {
      const script = Array.from({ length: calls }, (_, i) => bash(i));
      const model = await startAnthropicModel(script);
      await writeFile(join(route.root, "calls.log"), "");
      try {
        const run = await runClaude({
          binary: claudeBinary,
          cwd: route.root,
          prompt: "Do the task.",
          modelUrl: model.url,
          env: route.env,
          timeoutMs: sessionTimeoutMs,
        });
        const turns = model.turns().length;
        const seen = (await readFile(join(route.root, "calls.log"), "utf8")).split("\n").length - 1;
        if (run.code !== 0 || turns !== calls + 1 || (route.counts && seen !== calls)) {
          throw new BenchError(
            "AGENT_BENCH_ERR_WRONG_ANSWER",
            `${route.name}: a session of ${calls} Bash calls made ${turns} model requests and its guard saw ${seen} calls (exit ${run.code}): ${run.stderr.slice(-2_000)}`,
          );
        }
        return run.ms;
      } finally {
        await model.close();
      }
    },
  };
}

const ms = (value: number) =>
  Number.isFinite(value) ? `${Math.round(value).toLocaleString("en-US")} ms` : "-";
const perCallMs = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "-");
const loadLine = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

export async function run(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadLine();
  const log = (line: string) =>
    console.error(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
  log(`installing ${claudeCodePackage.name}@${claudeCodePackage.version} (cached after the first run)`);
  const claude = await installClaudeCode();
  if (!claude.ok || !claude.binary) {
    console.log(
      `agent-session: skipped, Claude Code could not be installed: ${claude.ok ? "no binary" : claude.reason}`,
    );
    return;
  }
  const binary = claude.binary;
  await withCleanup(async (cleanup) => {
    const dir = await mkdtemp(join(tmpdir(), "hookyard-bench-agent-session-"));
    cleanup.dir(dir);
    const runtime = join(dir, "runtime");
    await mkdir(runtime);
    // The exec route's daemon keeps its socket and log in the bench's own runtime dir.
    const base = { ...childEnv(join(dir, "home")), XDG_RUNTIME_DIR: runtime, HOOKYARD_EXEC_ROUTE: "auto" };
    const route = async (id: RouteId, name: string, perCall: string, counts: boolean): Promise<Route> => {
      const root = join(dir, id);
      await mkdir(join(root, ".claude"), { recursive: true });
      return { id, name, perCall, root, env: { XDG_RUNTIME_DIR: runtime }, counts };
    };
    const none = await route("none", "no hooks", "0", false);
    const sh = await route("sh", "sh guard, PreToolUse only", "1 process", true);
    await writeFile(join(sh.root, ".claude", "settings.json"), shSettings(false));
    const shBoth = await route("sh-both", "sh at PreToolUse and PostToolUse", "2 processes", true);
    await writeFile(join(shBoth.root, ".claude", "settings.json"), shSettings(true));
    const exec = await route("exec", "hookyard, exec (install-into default)", "2 processes", true);
    const http = await route("http", "hookyard, http to serve (--http)", "2 requests", true);
    for (const r of [exec, http]) {
      await mkdir(join(r.root, ".hookyard", "hooks"), { recursive: true });
      await writeFile(join(r.root, "hookyard.json"), "{}\n");
      await writeFile(
        join(r.root, ".hookyard", "hooks", "bench-guard.mjs"),
        hookyardGuard(join(r.root, "calls.log")),
      );
    }
    await hookyardCli(["install-into", "claude"], exec.root, base);
    const served = await startServe("hookyard serve", http.root, base, cleanup);
    await hookyardCli(
      ["install-into", "claude", "--http", "--port", new URL(served.origin).port],
      http.root,
      base,
    );
    http.env = { ...http.env, HOOKYARD_SERVE_TOKEN: served.token };
    const routes = [none, sh, shBoth, exec, http];
    const contenders = routes.flatMap((r) =>
      [0, callsPerSession].map((n) => ({ r, n, c: sessionContender(binary, r, n) })),
    );

    log(
      `${routes.length} ways, sessions of 0 and ${callsPerSession} Bash calls, ${timedRounds} rounds after ${warmupRounds} warm-up`,
    );
    let samples: Map<Contender, number[]>;
    try {
      samples = await runRounds(
        contenders.map((x) => x.c),
        { warmup: warmupRounds, rounds: timedRounds },
        log,
        cleanup.signal,
      );
    } finally {
      await stopDaemon(exec.root, { env: base }).catch(() => undefined);
    }
    const timed = (r: Route, n: number) => {
      const c = contenders.find((x) => x.r === r && x.n === n)?.c;
      return c ? (samples.get(c) ?? []) : [];
    };
    const p50 = (r: Route, n: number) => summarize(timed(r, n)).median;
    // Per round, so each estimate compares sessions run seconds apart (rounds interleave the
    // routes): a busy moment lands on a route and on its no-hooks baseline alike.
    const span = (r: Route, round: number) =>
      (timed(r, callsPerSession)[round] ?? Number.NaN) - (timed(r, 0)[round] ?? Number.NaN);
    const added = (r: Route) =>
      summarize(Array.from({ length: timedRounds }, (_, i) => (span(r, i) - span(none, i)) / callsPerSession))
        .median;
    const rows = routes.map((r) => [
      r.name,
      r.perCall,
      ms(p50(r, 0)),
      ms(p50(r, callsPerSession)),
      r === none ? "-" : perCallMs(added(r)),
      r === none || r === sh ? "-" : `${(added(r) / added(sh)).toFixed(1)}x`,
    ]);
    console.log(
      `agent-session: a real Claude Code ${claudeCodePackage.version} session (claude -p) with ${callsPerSession} Bash calls and with none, by how its hooks are run`,
    );
    console.log("");
    console.log(
      formatTable([
        [
          "hooks",
          "per Bash call",
          "session, 0 calls p50",
          `${callsPerSession} calls p50`,
          "added per call",
          "vs sh guard",
        ],
        ...rows,
      ]),
    );
    console.log("");
    const ratio = added(exec) / added(sh);
    console.log(
      `goal: the default route (exec) adds <= 2x what the sh guard adds per Bash call: ${ratio.toFixed(1)}x (${perCallMs(added(exec))} vs ${perCallMs(added(sh))}) ${ratio <= 2 ? "met" : "NOT met"}`,
    );
    console.log(
      `added per call = ((${callsPerSession} calls - 0 calls) - the same without hooks) / ${callsPerSession} in each round, the median of ${timedRounds} rounds; the session columns are p50s`,
    );
    console.log(`${environmentLine()}; load ${loadBefore} before, ${loadLine()} after`);
  });
}
