/**
 * Sandboxed hooks, measured through the runner's own path (CommunitySandbox + Dispatcher), in one
 * run: warm calls with a 4 KB ctx in process and inline isolation, a chain of 5, cold starts (a
 * call that forks the sandbox process, and one after start()), the same hook as a command hook (a
 * node process per call), RSS per loaded hook, and a soak.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { CtxOf } from "../core/events.js";
import { defineHook } from "../core/hook.js";
import { Dispatcher } from "../runner/chain/dispatch.js";
import { CommunitySandbox } from "../runner/community-sandbox.js";
import { compileHook } from "../runner/compile-hook.js";
import type { CompiledHook } from "../runner/compiled-hook.js";
import type { Logger } from "../runner/logger.js";
import { StateStore } from "../runner/state.js";
import { trustedApi } from "../runner/trusted-api.js";
import { createSandbox, type SandboxHook } from "../sandbox/index.js";
import { environmentLine, formatDuration, formatTable } from "./harness.js";

type ToolCtx = CtxOf<"tool_before">;

const noopHook = `export default { on: { tool_before() { return undefined; } } };`;

/** A 4 KB ctx, as a bash call with a long command and some environment. */
function ctx4k(n = 0): ToolCtx {
  const command = `echo ${"x".repeat(3_000)}`;
  const env = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`VAR_${i}`, `value-${i}-${"y".repeat(30)}`]),
  );
  return { sessionId: "bench", tool: "bash", args: { command, env, n }, callId: `call-${n}` };
}

const quietLogger: Logger & { errors: number } = {
  errors: 0,
  info: () => {},
  warn: () => {},
  error() {
    this.errors++;
  },
};

interface Setup {
  root: string;
  sandbox: CommunitySandbox;
  state: StateStore;
  hook(
    name: string,
    code: string,
    extra?: { grants?: []; timeoutMs?: number; limits?: { cpuMs?: number } },
  ): CompiledHook;
  dispatcher(hooks: CompiledHook[]): Dispatcher;
}

async function setup(isolation: "process" | "inline"): Promise<Setup> {
  const root = await mkdtemp(join(tmpdir(), "hookyard-bench-sandbox-"));
  const state = new StateStore(join(root, ".hookyard", "state"));
  const sandbox = new CommunitySandbox({ root, logger: quietLogger, state, isolation });
  return {
    root,
    sandbox,
    state,
    hook(name, code, extra = {}) {
      const bytes = Buffer.from(code);
      return compileHook(
        {
          engine: "sandbox",
          name,
          source: "bench",
          code: bytes,
          integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
          events: ["tool_before"],
          grants: [],
          ...(extra.timeoutMs ? { settings: { timeoutMs: extra.timeoutMs } } : {}),
          ...(extra.limits ? { limits: extra.limits } : {}),
        },
        { root, origin: "community", sandbox },
      );
    },
    dispatcher(hooks) {
      return new Dispatcher(hooks, {
        logger: quietLogger,
        apiFor: (r) => trustedApi({ hook: r.name, root, state: state.forHook(r.name), logger: quietLogger }),
      });
    },
  };
}

async function teardown(s: Setup): Promise<void> {
  await s.sandbox.close();
  await rm(s.root, { recursive: true, force: true });
}

interface Latency {
  p50: number;
  p99: number;
}

/** Per-call latencies in ns: warm-up first, then `count` timed calls. */
async function latencies(op: () => Promise<unknown>, warmup: number, count: number): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await op();
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await op();
    samples[i] = Number(process.hrtime.bigint() - start);
  }
  samples.sort();
  return {
    p50: samples[Math.floor(count * 0.5)] as number,
    p99: samples[Math.floor(count * 0.99)] as number,
  };
}

async function warmCall(isolation: "process" | "inline"): Promise<Latency> {
  const s = await setup(isolation);
  try {
    const dispatcher = s.dispatcher([s.hook("noop", noopHook)]);
    const ctx = ctx4k();
    return await latencies(() => dispatcher.dispatch("tool_before", ctx), 2_000, 20_000);
  } finally {
    await teardown(s);
  }
}

async function chainOfFive(): Promise<Latency> {
  const s = await setup("process");
  try {
    const hooks = Array.from({ length: 5 }, (_, i) => s.hook(`noop-${i}`, noopHook));
    const dispatcher = s.dispatcher(hooks);
    const ctx = ctx4k();
    return await latencies(() => dispatcher.dispatch("tool_before", ctx), 1_000, 10_000);
  } finally {
    await teardown(s);
  }
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1] as number;

interface ColdStarts {
  /** The first call of a sandbox that was never started: Node boots, then the isolate, compile, call. */
  onDemand: number;
  /** The first call after start(), once the process is up: isolate, compile, call. */
  afterStart: number;
  /** `node --no-node-snapshot -e 0`: the floor of any call that has to fork. */
  nodeBoot: number;
}

/**
 * First calls on fresh sandboxes, the median of a few each. Through the sandbox API (createSandbox):
 * the runner adds microseconds to milliseconds, and has no start() of its own yet.
 */
async function coldStarts(): Promise<ColdStarts> {
  const onDemand: number[] = [];
  const afterStart: number[] = [];
  const nodeBoot: number[] = [];
  for (let i = 0; i < 7; i++) {
    const root = await mkdtemp(join(tmpdir(), "hookyard-bench-cold-"));
    const hook: SandboxHook = {
      id: `noop-${i}`,
      name: "noop",
      code: Buffer.from(noopHook),
      points: ["tool_before"],
      grants: [],
    };
    const ctxJson = JSON.stringify(ctx4k(i));
    const services = { log() {}, warn() {}, stateGet: async () => undefined, stateSet: async () => {} };
    for (const started of [false, true]) {
      const sandbox = createSandbox({ isolation: "process", root, services });
      try {
        if (started) {
          sandbox.start();
          await settled(sandbox.pid);
        }
        const start = process.hrtime.bigint();
        await sandbox.run("tool_before", ctxJson, [hook]);
        (started ? afterStart : onDemand).push(Number(process.hrtime.bigint() - start));
      } finally {
        await sandbox.close();
      }
    }
    await rm(root, { recursive: true, force: true });
    const start = process.hrtime.bigint();
    await promisify(execFile)(process.execPath, ["--no-node-snapshot", "-e", "0"]);
    nodeBoot.push(Number(process.hrtime.bigint() - start));
  }
  return { onDemand: median(onDemand), afterStart: median(afterStart), nodeBoot: median(nodeBoot) };
}

/** Waits until a started process is up: it stops using CPU once booted and waiting (at most 10 s). */
async function settled(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const ticks = async () => {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  };
  const deadline = Date.now() + 10_000;
  let last = -1;
  for (;;) {
    await new Promise((done) => setTimeout(done, 100));
    const now = await ticks();
    if (now === last || Date.now() > deadline) return;
    last = now;
  }
}

/** The same no-op as a command hook: a node process per call reading the ctx on stdin. */
async function commandEngine(): Promise<Latency> {
  const root = await mkdtemp(join(tmpdir(), "hookyard-bench-command-"));
  try {
    const script = join(root, "noop.mjs");
    await writeFile(
      script,
      "process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('{}'));\n",
    );
    const hook = compileHook(
      {
        name: "noop-command",
        engine: "command",
        events: ["tool_before"],
        command: [process.execPath, script],
      },
      { root, origin: "workspace" },
    );
    const state = new StateStore(join(root, ".hookyard", "state"));
    const dispatcher = new Dispatcher([hook], {
      logger: quietLogger,
      apiFor: (r) => trustedApi({ hook: r.name, root, state: state.forHook(r.name), logger: quietLogger }),
    });
    const ctx = ctx4k();
    return await latencies(() => dispatcher.dispatch("tool_before", ctx), 3, 40);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function rssOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb * 1024;
}

/** RSS of the sandbox process with 1 hook loaded, then with 50: the difference per hook. */
async function rssPerHook(): Promise<{ perHook: number; base: number }> {
  const s = await setup("process");
  try {
    const hooks = Array.from({ length: 50 }, (_, i) => s.hook(`hook-${i}`, `${noopHook}\n// ${i}`));
    const one = s.dispatcher(hooks.slice(0, 1));
    await one.dispatch("tool_before", ctx4k());
    const pid = s.sandbox.pid;
    await new Promise((done) => setTimeout(done, 200));
    const base = await rssOf(pid);
    // One call each loads every hook's isolate; a second pass would load nothing more.
    for (const hook of hooks) await s.dispatcher([hook]).dispatch("tool_before", ctx4k());
    await new Promise((done) => setTimeout(done, 200));
    const loaded = await rssOf(pid);
    return { perHook: (loaded - base) / 49, base };
  } finally {
    await teardown(s);
  }
}

/** 100,000 events through 10 mixed hooks, two misbehaving; RSS (ours + sandbox) after warm-up and at the end. */
async function soak(
  events: number,
): Promise<{ warmUp: number; warm: number; end: number; ms: number; failures: number }> {
  const s = await setup("process");
  try {
    const trusted = (name: string) =>
      compileHook(
        {
          engine: "inprocess",
          source: "bench",
          definition: defineHook({
            name,
            on: { tool_before: (ctx) => void String(ctx.args.command).length },
          }),
        },
        { root: s.root, origin: "workspace" },
      );
    const hooks: CompiledHook[] = [
      trusted("trusted-a"),
      trusted("trusted-b"),
      trusted("trusted-c"),
      s.hook(
        "inspect",
        `export default { on: { tool_before(ctx) { if (ctx.args.command.includes("rm -rf /")) return { block: "no" }; } } };`,
      ),
      s.hook(
        "notice",
        `export default { on: { tool_before(ctx) { return ctx.args.n % 100 === 0 ? { notice: "hundred" } : undefined; } } };`,
      ),
      s.hook(
        "copy",
        `export default { on: { tool_before(ctx) { const c = JSON.parse(JSON.stringify(ctx)); return c.tool === "x" ? { block: "x" } : undefined; } } };`,
      ),
      s.hook(
        "log",
        `export default { on: { tool_before(ctx, api) { if (ctx.args.n % 1000 === 0) api.log("tick", ctx.args.n); } } };`,
      ),
      s.hook("noop", noopHook),
      s.hook("thrower", `export default { on: { tool_before() { throw new Error("always broken"); } } };`),
      s.hook(
        "spinner",
        `export default { on: { tool_before(ctx) { if (ctx.args.n % 20000 === 1) for (;;) {} } } };`,
        { limits: { cpuMs: 50 } },
      ),
    ];
    const dispatcher = s.dispatcher(hooks);
    const ctxs = Array.from({ length: 100 }, (_, i) => ctx4k(i));
    const rss = async () => process.memoryUsage().rss + (await rssOf(s.sandbox.pid));
    const start = Date.now();
    const warmUp = Math.min(10_000, events / 10);
    let warm = 0;
    for (let n = 1; n <= events; n++) {
      const ctx = ctxs[n % 100] as ToolCtx;
      (ctx.args as { n: number }).n = n;
      await dispatcher.dispatch("tool_before", ctx);
      if (n === warmUp) {
        global.gc?.();
        warm = await rss();
      }
      if (n % 20_000 === 0) process.stderr.write(`  soak: ${n} / ${events} events\n`);
    }
    global.gc?.();
    const end = await rss();
    return { warmUp, warm, end, ms: Date.now() - start, failures: quietLogger.errors };
  } finally {
    await teardown(s);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const loadNow = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const met = (ok: boolean) => (ok ? "yes" : "NO");

export async function run(): Promise<void> {
  const events = Number(process.env.HOOKYARD_BENCH_SOAK_EVENTS ?? 100_000);
  const load = { before: loadNow() };
  console.log("sandbox: community hooks through the runner (CommunitySandbox + Dispatcher), 4 KB ctx");
  const step = (what: string) => process.stderr.write(`  ${what}…\n`);
  step("warm calls, process isolation");
  const warmProcess = await warmCall("process");
  step("warm calls, inline isolation");
  const warmInline = await warmCall("inline");
  step("chain of 5");
  const chain = await chainOfFive();
  step("cold starts");
  const cold = await coldStarts();
  step("command engine");
  const command = await commandEngine();
  step("RSS of 50 loaded hooks");
  const rss = await rssPerHook();
  step(`soak, ${events} events`);
  const soaked = await soak(events);

  const speedup = command.p50 / warmProcess.p50;
  const growth = soaked.end / soaked.warm - 1;
  console.log(
    formatTable([
      ["measure", "p50", "p99", "goal", "met"],
      [
        "warm call, process isolation",
        formatDuration(warmProcess.p50),
        formatDuration(warmProcess.p99),
        "p50 ≤ 150 µs",
        met(warmProcess.p50 <= 150_000),
      ],
      [
        "warm call, inline isolation",
        formatDuration(warmInline.p50),
        formatDuration(warmInline.p99),
        "p50 ≤ 30 µs",
        met(warmInline.p50 <= 30_000),
      ],
      [
        "chain of 5 sandboxed hooks (process)",
        formatDuration(chain.p50),
        formatDuration(chain.p99),
        "≤ 250 µs",
        met(chain.p50 <= 250_000),
      ],
      [
        "cold first call (fork on demand)",
        formatDuration(cold.onDemand),
        "",
        "≤ 50 ms",
        met(cold.onDemand <= 50e6),
      ],
      [
        "first call after start(), process up",
        formatDuration(cold.afterStart),
        "",
        "≤ 50 ms",
        met(cold.afterStart <= 50e6),
      ],
      [
        "same hook, command engine (node per call)",
        formatDuration(command.p50),
        formatDuration(command.p99),
        "",
        "",
      ],
      ["command / sandboxed (process), p50", `${speedup.toFixed(0)}x`, "", "≥ 200x", met(speedup >= 200)],
      ["RSS per loaded hook (50 hooks)", mb(rss.perHook), "", "≤ 3 MB", met(rss.perHook <= 3 * 1024 * 1024)],
      [
        `soak: ${events} events (${soaked.warmUp} to warm up), 10 hooks (2 misbehaving)`,
        `${((soaked.ms * 1e6) / events / 1e3).toFixed(0)} µs/event`,
        `RSS ${mb(soaked.warm)} → ${mb(soaked.end)}`,
        "growth ≤ 10%",
        `${met(growth <= 0.1)} (${(growth * 100).toFixed(1)}%)`,
      ],
    ]),
  );
  console.log(
    `bare node --no-node-snapshot -e 0: ${formatDuration(cold.nodeBoot)} (the floor of a call that forks); sandbox process RSS with one hook: ${mb(rss.base)}; soak failures logged: ${soaked.failures}`,
  );
  console.log(`load average ${load.before} before, ${loadNow()} after; ${environmentLine()}`);
}
