/**
 * Sandboxed hooks, measured through the runner's own path (CommunitySandbox + Dispatcher), in one
 * run: warm calls with a 4 KB ctx in process and inline isolation, a chain of 5, a cold start, the
 * same hook as a command hook (a node process per call), RSS per loaded hook, and a soak.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommunitySandbox } from "../runner/community-sandbox.js";
import { compileRule } from "../runner/compile-rule.js";
import { Dispatcher } from "../runner/dispatch.js";
import type { CtxOf } from "../runner/events.js";
import { defineHook } from "../runner/hook.js";
import type { Logger } from "../runner/logger.js";
import type { Rule } from "../runner/rule.js";
import { StateStore } from "../runner/state.js";
import { trustedApi } from "../runner/trusted-api.js";
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
  rule(
    name: string,
    code: string,
    extra?: { grants?: []; timeoutMs?: number; limits?: { cpuMs?: number } },
  ): Rule;
  dispatcher(rules: Rule[]): Dispatcher;
}

async function setup(isolation: "process" | "inline"): Promise<Setup> {
  const root = await mkdtemp(join(tmpdir(), "hookyard-bench-sandbox-"));
  const state = new StateStore(join(root, ".hookyard", "state"));
  const sandbox = new CommunitySandbox({ root, logger: quietLogger, state, isolation });
  return {
    root,
    sandbox,
    state,
    rule(name, code, extra = {}) {
      const bytes = Buffer.from(code);
      return compileRule(
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
    dispatcher(rules) {
      return new Dispatcher(rules, {
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
    const dispatcher = s.dispatcher([s.rule("noop", noopHook)]);
    const ctx = ctx4k();
    return await latencies(() => dispatcher.dispatch("tool_before", ctx), 2_000, 20_000);
  } finally {
    await teardown(s);
  }
}

async function chainOfFive(): Promise<Latency> {
  const s = await setup("process");
  try {
    const rules = Array.from({ length: 5 }, (_, i) => s.rule(`noop-${i}`, noopHook));
    const dispatcher = s.dispatcher(rules);
    const ctx = ctx4k();
    return await latencies(() => dispatcher.dispatch("tool_before", ctx), 1_000, 10_000);
  } finally {
    await teardown(s);
  }
}

/** First call on a fresh sandbox: process start, isolate, compile; the median of a few. */
async function coldStart(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const s = await setup("process");
    try {
      const dispatcher = s.dispatcher([s.rule("noop", noopHook)]);
      const start = process.hrtime.bigint();
      await dispatcher.dispatch("tool_before", ctx4k());
      times.push(Number(process.hrtime.bigint() - start));
    } finally {
      await teardown(s);
    }
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1] as number;
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
    const rule = compileRule(
      {
        name: "noop-command",
        engine: "command",
        events: ["tool_before"],
        command: [process.execPath, script],
      },
      { root, origin: "workspace" },
    );
    const state = new StateStore(join(root, ".hookyard", "state"));
    const dispatcher = new Dispatcher([rule], {
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
    const rules = Array.from({ length: 50 }, (_, i) => s.rule(`hook-${i}`, `${noopHook}\n// ${i}`));
    const one = s.dispatcher(rules.slice(0, 1));
    await one.dispatch("tool_before", ctx4k());
    const pid = s.sandbox.pid;
    await new Promise((done) => setTimeout(done, 200));
    const base = await rssOf(pid);
    const all = s.dispatcher(rules);
    // Each hook gets its own trip: they would otherwise share one, which is fine but not the point.
    for (const rule of rules) await s.dispatcher([rule]).dispatch("tool_before", ctx4k());
    await all.dispatch("tool_before", ctx4k());
    await new Promise((done) => setTimeout(done, 200));
    const loaded = await rssOf(pid);
    return { perHook: (loaded - base) / 49, base };
  } finally {
    await teardown(s);
  }
}

/** 100,000 events through 10 mixed hooks, two misbehaving; RSS (ours + sandbox) after warm-up and at the end. */
async function soak(events: number): Promise<{ warm: number; end: number; ms: number; failures: number }> {
  const s = await setup("process");
  try {
    const trusted = (name: string) =>
      compileRule(
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
    const rules: Rule[] = [
      trusted("trusted-a"),
      trusted("trusted-b"),
      trusted("trusted-c"),
      s.rule(
        "inspect",
        `export default { on: { tool_before(ctx) { if (ctx.args.command.includes("rm -rf /")) return { block: "no" }; } } };`,
      ),
      s.rule(
        "notice",
        `export default { on: { tool_before(ctx) { return ctx.args.n % 100 === 0 ? { notice: "hundred" } : undefined; } } };`,
      ),
      s.rule(
        "copy",
        `export default { on: { tool_before(ctx) { const c = JSON.parse(JSON.stringify(ctx)); return c.tool === "x" ? { block: "x" } : undefined; } } };`,
      ),
      s.rule(
        "log",
        `export default { on: { tool_before(ctx, api) { if (ctx.args.n % 1000 === 0) api.log("tick", ctx.args.n); } } };`,
      ),
      s.rule("noop", noopHook),
      s.rule("thrower", `export default { on: { tool_before() { throw new Error("always broken"); } } };`),
      s.rule(
        "spinner",
        `export default { on: { tool_before(ctx) { if (ctx.args.n % 20000 === 1) for (;;) {} } } };`,
        { limits: { cpuMs: 50 } },
      ),
    ];
    const dispatcher = s.dispatcher(rules);
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
    return { warm, end, ms: Date.now() - start, failures: quietLogger.errors };
  } finally {
    await teardown(s);
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
const met = (ok: boolean) => (ok ? "yes" : "NO");

export async function run(): Promise<void> {
  const events = Number(process.env.HOOKYARD_BENCH_SOAK_EVENTS ?? 100_000);
  console.log("sandbox: community hooks through the runner (CommunitySandbox + Dispatcher), 4 KB ctx");
  const step = (what: string) => process.stderr.write(`  ${what}…\n`);
  step("warm calls, process isolation");
  const warmProcess = await warmCall("process");
  step("warm calls, inline isolation");
  const warmInline = await warmCall("inline");
  step("chain of 5");
  const chain = await chainOfFive();
  step("cold starts");
  const cold = await coldStart();
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
      ["cold start (process + isolate + compile)", formatDuration(cold), "", "≤ 50 ms", met(cold <= 50e6)],
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
        `soak: ${events} events, 10 hooks (2 misbehaving)`,
        `${((soaked.ms * 1e6) / events / 1e3).toFixed(0)} µs/event`,
        `RSS ${mb(soaked.warm)} → ${mb(soaked.end)}`,
        "growth ≤ 10%",
        `${met(growth <= 0.1)} (${(growth * 100).toFixed(1)}%)`,
      ],
    ]),
  );
  console.log(
    `sandbox process RSS with one hook: ${mb(rss.base)}; soak failures logged: ${soaked.failures}; ${environmentLine()}`,
  );
}
