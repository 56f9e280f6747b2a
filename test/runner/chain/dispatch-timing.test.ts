import { describe, expect, it } from "vitest";
import { toolBefore } from "../../helpers/ctx.js";
import { deferred, harness, sleep } from "../helpers.js";

const argsOf = (ctx: { args: Record<string, unknown> }) => ctx.args as { command: string; flags: string[] };

/** Timers that keep the process alive right now. */
const refTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // a hook that computes synchronously
  }
}

describe("sync and async hooks in one chain", () => {
  it("run in order, each seeing the writes of the one before, whether it answered at once or later", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      { name: "a", priority: 1, on: { tool_before: (ctx) => void argsOf(ctx).flags.push("a") } },
      {
        name: "b",
        priority: 2,
        on: {
          async tool_before(ctx) {
            seen.push(argsOf(ctx).flags.join());
            await sleep(5);
            argsOf(ctx).flags.push("b");
            return { notice: "from b" };
          },
        },
      },
      {
        name: "c",
        priority: 3,
        on: {
          tool_before(ctx) {
            seen.push(argsOf(ctx).flags.join());
            argsOf(ctx).flags.push("c");
            return { inject: "from c" };
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(seen).toEqual(["-l,-a,a", "-l,-a,a,b"]);
    expect(argsOf(ctx).flags).toEqual(["-l", "-a", "a", "b", "c"]);
    expect(outcome.notices).toEqual([{ hook: "b", text: "from b" }]);
    expect(outcome.injects).toEqual([{ hook: "c", text: "from c" }]);
    expect(outcome.runs.map((r) => [r.hook, r.status, r.effects])).toEqual([
      ["a", "ok", ["rewrite"]],
      ["b", "ok", ["rewrite", "notice"]],
      ["c", "ok", ["rewrite", "inject"]],
    ]);
  });

  it("a plain thenable counts as an async answer", async () => {
    // biome-ignore lint/suspicious/noThenProperty: the point of the test is a thenable that is no Promise
    const thenable = { then: (resolve: (value: unknown) => void) => resolve({ ask: "sure?" }) };
    const { dispatcher } = await harness([
      { name: "thenable", on: { tool_before: () => thenable as never } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("ask");
    expect(outcome.asks).toEqual([{ hook: "thenable", reason: "sure?" }]);
  });

  it("an answer whose `then` throws when read is a hook error, and its writes are undone", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "trap",
        on: {
          tool_before(ctx) {
            argsOf(ctx).command = "rm -rf /";
            // biome-ignore lint/suspicious/noThenProperty: an answer whose then getter throws
            return Object.defineProperty({}, "then", {
              get() {
                throw new Error("no then for you");
              },
            }) as never;
          },
        },
      },
      { name: "after", on: { tool_before: () => ({ notice: "ran" }) } },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(outcome.runs.map((r) => [r.hook, r.status])).toEqual([
      ["trap", "error"],
      ["after", "ok"],
    ]);
    expect(outcome.warnings).toMatchObject([{ hook: "trap", code: "RUN_ERR_HOOK_THREW" }]);
    expect(logger.errors).toEqual([expect.stringMatching(/"trap".*no then for you/)]);
  });

  it("each run's ms is that hook's own time, not the one before it", async () => {
    const { dispatcher } = await harness([
      { name: "slow", priority: 1, on: { tool_before: () => busy(60) } },
      { name: "quick", priority: 2, on: { tool_before: () => {} } },
      {
        name: "throws",
        priority: 3,
        on: {
          tool_before() {
            busy(20);
            throw new Error("late failure");
          },
        },
      },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    const [slow, quick, throws] = outcome.runs;
    // Bounds that a busy machine cannot break: a lap that took in the hook before it would be at
    // least that hook's time plus its own.
    const slowMs = slow?.ms ?? 0;
    expect(slowMs).toBeGreaterThanOrEqual(60);
    expect(quick?.ms).toBeGreaterThanOrEqual(0);
    expect(quick?.ms).toBeLessThan(slowMs);
    expect(throws?.status).toBe("error");
    expect(throws?.ms).toBeGreaterThanOrEqual(20);
    expect(throws?.ms).toBeLessThan(slowMs + 20);
  });
});

describe("timeouts of hooks in flight at once", () => {
  const stuck = (name: string, timeoutMs: number) => ({
    name,
    timeoutMs,
    on: { tool_before: () => new Promise<undefined>(() => {}) },
  });

  /** Dispatches and resolves to how long the dispatch took and the hook's status. */
  async function timed(dispatch: () => Promise<{ runs: Array<{ status: string }> }>) {
    const started = performance.now();
    const outcome = await dispatch();
    return { ms: performance.now() - started, status: outcome.runs[0]?.status };
  }

  it("a shorter timeout started later still fires at its own time", async () => {
    const long = await harness([stuck("long", 400)]);
    const short = await harness([stuck("short", 60)]);
    const [a, b] = await Promise.all([
      timed(() => long.dispatcher.dispatch("tool_before", toolBefore())),
      timed(() => short.dispatcher.dispatch("tool_before", toolBefore())),
    ]);
    expect(b.status).toBe("timeout");
    expect(b.ms).toBeGreaterThanOrEqual(55);
    expect(a.status).toBe("timeout");
    expect(a.ms).toBeGreaterThanOrEqual(395);
    // The short one did not wait for the long one (a timer a busy machine delays delays both).
    expect(b.ms).toBeLessThan(a.ms);
  });

  it("hooks of one dispatcher in concurrent dispatches each time out at their own timeoutMs", async () => {
    const { dispatcher } = await harness([
      { ...stuck("short", 60), matcher: { callId: "^short$" } },
      { ...stuck("long", 250), matcher: { callId: "^long$" } },
    ]);
    const [long, short] = await Promise.all([
      timed(() => dispatcher.dispatch("tool_before", toolBefore({ callId: "long" }))),
      timed(() => dispatcher.dispatch("tool_before", toolBefore({ callId: "short" }))),
    ]);
    expect([short.status, long.status]).toEqual(["timeout", "timeout"]);
    expect(short.ms).toBeGreaterThanOrEqual(55);
    expect(long.ms).toBeGreaterThanOrEqual(245);
    expect(short.ms).toBeLessThan(long.ms);

    // And again once the dispatcher has been idle: the watch starts afresh.
    const again = await timed(() => dispatcher.dispatch("tool_before", toolBefore({ callId: "short" })));
    expect(again.status).toBe("timeout");
    expect(again.ms).toBeGreaterThanOrEqual(55);
    expect(again.ms).toBeLessThan(long.ms);
  });

  it("a hook that answers in time is not timed out by a timer left from an earlier call", async () => {
    const { dispatcher } = await harness([
      {
        name: "steady",
        timeoutMs: 100,
        on: {
          async tool_before() {
            await sleep(30);
            return { notice: "ok" };
          },
        },
      },
    ]);
    for (let i = 0; i < 6; i++) {
      const outcome = await dispatcher.dispatch("tool_before", toolBefore());
      expect(outcome.runs.map((r) => r.status)).toEqual(["ok"]);
    }
  });

  it("keeps the process alive only while an async hook is in flight", async () => {
    const gate = deferred();
    const { dispatcher } = await harness([
      { name: "waits", timeoutMs: 60_000, on: { tool_before: () => gate.promise } },
    ]);
    const idle = refTimers();
    const dispatched = dispatcher.dispatch("tool_before", toolBefore());
    expect(refTimers()).toBe(idle + 1);
    gate.resolve();
    const outcome = await dispatched;
    expect(outcome.runs.map((r) => r.status)).toEqual(["ok"]);
    expect(refTimers()).toBe(idle);
  });
});
