/**
 * Dispatch overhead per hook: a chain of 10 no-op hooks at tool_before, hookyard against hookable
 * and tapable in the same run, plus one command hook (a process per call) as a baseline.
 * Goal: hookyard within 1.5x of the faster peer per hook.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHooks } from "hookable";
import { AsyncSeriesWaterfallHook } from "tapable";
import type { CtxOf } from "../core/events.js";
import { defineHook, type HookDefinition } from "../core/hook.js";
import { Dispatcher } from "../runner/chain/dispatch.js";
import { compileHook } from "../runner/compile-hook.js";
import type { CompiledHook } from "../runner/compiled-hook.js";
import { loadHooks } from "../runner/load/load-hooks.js";
import type { Logger } from "../runner/logger.js";
import { StateStore } from "../runner/state.js";
import { trustedApi } from "../runner/trusted-api.js";
import {
  type Contender,
  environmentLine,
  formatDuration,
  formatRate,
  formatTable,
  type Measurement,
  maxRssLine,
  measure,
} from "./harness.js";

type ToolCtx = CtxOf<"tool_before">;

const chainLength = 10;
const goal = 1.5;

const inprocessOptions = { warmup: 20_000, iterations: 200_000, rounds: 20, budgetMs: 2_500 };
const commandOptions = { warmup: 3, iterations: 30, rounds: 3, budgetMs: 6_000 };

/** Which peer a hookyard row is compared with like for like: sync no-ops with sync, async with async. */
type Kind = "sync" | "async" | "process";

interface Row extends Contender {
  hooks: number;
  kind: Kind;
  peer: boolean;
}

const ctx: ToolCtx = {
  sessionId: "bench-session",
  tool: "bash",
  args: { command: "ls -la" },
  callId: "call-1",
};

/** Collects what the runner logs; a no-op chain should log nothing, and anything logged is shown. */
function collectingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (message) => lines.push(`info: ${message}`),
    warn: (message) => lines.push(`warn: ${message}`),
    error: (message) => lines.push(`error: ${message}`),
  };
}

function noopDefinitions(handler: () => void | Promise<void>): HookDefinition[] {
  return Array.from({ length: chainLength }, (_, i) =>
    defineHook({ name: `noop-${String(i).padStart(2, "0")}`, on: { tool_before: handler } }),
  );
}

function dispatcherOf(root: string, hooks: CompiledHook[], logger: Logger): Dispatcher {
  const state = new StateStore(join(root, ".hookyard", "state"));
  return new Dispatcher(hooks, {
    logger,
    apiFor: (hook) => trustedApi({ hook: hook.name, root, state: state.forHook(hook.name), logger }),
  });
}

function inprocessDispatcher(root: string, handler: () => void | Promise<void>, logger: Logger): Dispatcher {
  const hooks = noopDefinitions(handler).map((definition) =>
    compileHook({ engine: "inprocess", definition, source: "bench" }, { root, origin: "workspace" }),
  );
  return dispatcherOf(root, hooks, logger);
}

/** A workspace with 10 no-op hook files and the builtin audit-log disabled, loaded the public way. */
async function writeWorkspace(root: string): Promise<void> {
  await mkdir(join(root, ".hookyard", "hooks"), { recursive: true });
  await writeFile(
    join(root, "hookyard.json"),
    JSON.stringify({ hooks: { "audit-log": { enabled: false } } }),
  );
  for (let i = 0; i < chainLength; i++) {
    const name = `noop-${String(i).padStart(2, "0")}`;
    await writeFile(
      join(root, ".hookyard", "hooks", `${name}.mjs`),
      `export default { name: ${JSON.stringify(name)}, on: { tool_before: () => {} } };\n`,
    );
  }
}

async function check(label: string, op: () => unknown, expectRuns: number | undefined): Promise<void> {
  const outcome = (await op()) as { verdict?: string; runs?: unknown[]; warnings?: unknown[] } | undefined;
  if (expectRuns === undefined) return;
  if (outcome?.verdict !== "allow" || outcome.runs?.length !== expectRuns || outcome.warnings?.length) {
    throw new Error(`${label}: unexpected outcome ${JSON.stringify(outcome)}`);
  }
}

export async function run(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "hookyard-bench-dispatch-"));
  const logger = collectingLogger();
  const closers: Array<() => Promise<void>> = [];
  try {
    // hookyard, straight through Dispatcher (trusted inprocess hooks, trustedApi with a StateStore).
    const syncDispatcher = inprocessDispatcher(root, () => {}, logger);
    const asyncDispatcher = inprocessDispatcher(root, async () => {}, logger);

    // hookyard through loadHooks: hook files bundled by esbuild, ctx validated with zod per dispatch.
    const workspace = join(root, "workspace");
    await writeWorkspace(workspace);
    const loaded = await loadHooks({ cwd: workspace, logger });
    closers.push(() => loaded.close());
    const loadedChain = loaded.list().find((entry) => entry.point === "tool_before")?.hooks ?? [];
    if (loaded.problems.length > 0 || loadedChain.length !== chainLength) {
      throw new Error(
        `loadHooks: expected ${chainLength} hooks at tool_before, got ${loadedChain.map((h) => h.name).join(", ")}; problems: ${JSON.stringify(loaded.problems)}`,
      );
    }

    // hookable v6: the same chain as hooks.hook(...) x10, awaited with callHook.
    const hookableSync = createHooks<{ tool_before: (ctx: ToolCtx) => void | Promise<void> }>();
    const hookableAsync = createHooks<{ tool_before: (ctx: ToolCtx) => void | Promise<void> }>();
    // tapable v2: a waterfall of promise taps, each handing the ctx on.
    const tapable = new AsyncSeriesWaterfallHook<[ToolCtx]>(["ctx"]);
    for (let i = 0; i < chainLength; i++) {
      hookableSync.hook("tool_before", () => {});
      hookableAsync.hook("tool_before", async () => {});
      tapable.tapPromise(`noop-${i}`, async (value) => value);
    }

    // Baselines: one command hook through the command engine, a process per call.
    const shHook = compileHook(
      { engine: "command", name: "sh-cat", events: ["tool_before"], command: "cat >/dev/null" },
      { root, origin: "workspace" },
    );
    const nodeHook = compileHook(
      {
        engine: "command",
        name: "node-stdin",
        events: ["tool_before"],
        command: [process.execPath, "-e", "require('node:fs').readFileSync(0)"],
      },
      { root, origin: "workspace" },
    );
    const shDispatcher = dispatcherOf(root, [shHook], logger);
    const nodeDispatcher = dispatcherOf(root, [nodeHook], logger);

    const inprocess: Row[] = [
      {
        name: "hookyard Dispatcher, sync no-op",
        op: () => syncDispatcher.dispatch("tool_before", ctx),
        hooks: chainLength,
        kind: "sync",
        peer: false,
      },
      {
        name: "hookyard Dispatcher, async no-op",
        op: () => asyncDispatcher.dispatch("tool_before", ctx),
        hooks: chainLength,
        kind: "async",
        peer: false,
      },
      {
        name: "hookyard loadHooks (+zod ctx), sync no-op",
        op: () => loaded.dispatch("tool_before", ctx),
        hooks: chainLength,
        kind: "sync",
        peer: false,
      },
      {
        name: "hookable callHook, sync no-op",
        op: () => hookableSync.callHook("tool_before", ctx),
        hooks: chainLength,
        kind: "sync",
        peer: true,
      },
      {
        name: "hookable callHook, async no-op",
        op: () => hookableAsync.callHook("tool_before", ctx),
        hooks: chainLength,
        kind: "async",
        peer: true,
      },
      {
        name: "tapable AsyncSeriesWaterfall tapPromise",
        op: () => tapable.promise(ctx),
        hooks: chainLength,
        kind: "async",
        peer: true,
      },
    ];
    const processes: Row[] = [
      {
        name: "command hook: sh -c 'cat >/dev/null'",
        op: () => shDispatcher.dispatch("tool_before", ctx),
        hooks: 1,
        kind: "process",
        peer: false,
      },
      {
        name: "command hook: node -e (reads stdin)",
        op: () => nodeDispatcher.dispatch("tool_before", ctx),
        hooks: 1,
        kind: "process",
        peer: false,
      },
    ];

    for (const row of [...inprocess, ...processes]) {
      const runs = row.name.startsWith("hookyard") || row.kind === "process" ? row.hooks : undefined;
      await check(row.name, row.op, runs);
    }

    const started = performance.now();
    const inprocessResults = await measure(inprocess, inprocessOptions);
    const processResults = await measure(processes, commandOptions);
    const elapsed = performance.now() - started;

    print([...inprocess, ...processes], [...inprocessResults, ...processResults], elapsed);
    if (logger.lines.length > 0) {
      console.log(`\nthe runner logged ${logger.lines.length} line(s) during the bench, first:`);
      console.log(logger.lines.slice(0, 5).join("\n"));
    }
  } finally {
    for (const close of closers) await close();
    await rm(root, { recursive: true, force: true });
  }
}

function print(rows: readonly Row[], results: readonly Measurement[], elapsedMs: number): void {
  const perHook = (i: number) => (results[i]?.meanNs ?? Number.NaN) / (rows[i]?.hooks ?? 1);
  const fastestOf = (keep: (row: Row) => boolean) => {
    let best = Number.POSITIVE_INFINITY;
    rows.forEach((row, i) => {
      if (keep(row)) best = Math.min(best, perHook(i));
    });
    return best;
  };
  const fasterPeer = fastestOf((row) => row.peer);
  const likePeer = {
    sync: fastestOf((row) => row.peer && row.kind === "sync"),
    async: fastestOf((row) => row.peer && row.kind === "async"),
    process: Number.NaN,
  };
  const ratio = (value: number, base: number) =>
    Number.isFinite(value / base) ? `${(value / base).toFixed(value / base < 100 ? 2 : 0)}x` : "-";

  const table: string[][] = [
    [
      "contender",
      "hooks",
      "iterations",
      "ns/hook",
      "median rnd",
      "best rnd",
      "per chain",
      "chains/s",
      "x faster peer",
      "x like peer",
    ],
  ];
  rows.forEach((row, i) => {
    const result = results[i];
    if (!result) return;
    table.push([
      row.name,
      String(row.hooks),
      String(result.iterations),
      formatDuration(perHook(i)),
      formatDuration(result.medianNs / row.hooks),
      formatDuration(result.bestNs / row.hooks),
      formatDuration(result.meanNs),
      formatRate(1e9 / result.meanNs),
      ratio(perHook(i), fasterPeer),
      row.peer ? "peer" : ratio(perHook(i), likePeer[row.kind]),
    ]);
  });

  console.log(`dispatch: hookyard within ${goal}x of the faster peer per hook`);
  console.log(`${environmentLine()}`);
  console.log(
    `chain of ${chainLength} no-op hooks at tool_before, one awaited dispatch per op; ns/hook = total / iterations / hooks` +
      ` over ${inprocessOptions.rounds} interleaved rounds after warm-up`,
  );
  console.log(
    "faster peer = fastest of the hookable and tapable rows; like peer = fastest peer of the same kind" +
      " (sync no-op vs hookable sync, async vs hookable async / tapable); command rows are 1 hook, a process per call",
  );
  console.log("");
  console.log(formatTable(table));
  console.log("");
  // The goal on every statistic: the mean is what was asked for, median and best round show
  // whether the machine was quiet (under load the short peer batches suffer most).
  const syncIndex = rows.findIndex((row) => row.name.startsWith("hookyard Dispatcher, sync"));
  const stats = [
    ["mean", (r: Measurement) => r.meanNs],
    ["median round", (r: Measurement) => r.medianNs],
    ["best round", (r: Measurement) => r.bestNs],
  ] as const;
  const verdicts = stats.map(([label, pick]) => {
    const nsPerHook = (i: number) => {
      const result = results[i];
      return result ? pick(result) / (rows[i]?.hooks ?? 1) : Number.NaN;
    };
    let peer = Number.POSITIVE_INFINITY;
    rows.forEach((row, i) => {
      if (row.peer) peer = Math.min(peer, nsPerHook(i));
    });
    const value = nsPerHook(syncIndex) / peer;
    return `${label} ${value.toFixed(2)}x ${value <= goal ? "MET" : "NOT MET"} (${formatDuration(nsPerHook(syncIndex))} vs ${formatDuration(peer)})`;
  });
  console.log(`goal: hookyard sync no-op per hook <= ${goal}x the faster peer`);
  for (const verdict of verdicts) console.log(`  ${verdict}`);
  console.log(`measured in ${(elapsedMs / 1000).toFixed(1)} s, ${maxRssLine()}`);
}
