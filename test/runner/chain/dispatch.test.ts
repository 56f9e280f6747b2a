import { describe, expect, it } from "vitest";
import type { HookApi } from "../../../core/hook.js";
import { agentAfter, toolAfter, toolBefore, turnAfter, turnBefore } from "../../helpers/ctx.js";
import { deferred, harness, hookOf, sleep } from "../helpers.js";

interface Args {
  command: string;
  env: Record<string, string>;
  flags: string[];
  [key: string]: unknown;
}

const argsOf = (ctx: { args: Record<string, unknown> }) => ctx.args as Args;
/** A copy a hook can take of a ctx part (structuredClone refuses the journal's proxies). */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe("chain order", () => {
  it("runs hooks by ascending priority, the default being 100", async () => {
    const seen: string[] = [];
    const hook = (name: string, priority?: number) => ({
      name,
      ...(priority === undefined ? {} : { priority }),
      on: { tool_before: () => void seen.push(name) },
    });
    const { dispatcher } = await harness([
      hook("late", 500),
      hook("default"),
      hook("early", 1),
      hook("neg", -3),
    ]);
    await dispatcher.dispatch("tool_before", toolBefore());
    expect(seen).toEqual(["neg", "early", "default", "late"]);
  });

  it("runs hooks of equal priority in the order they were registered", async () => {
    const seen: string[] = [];
    const names = ["zeta", "alpha", "mid", "beta"];
    const { dispatcher } = await harness(
      names.map((name) => ({ name, priority: 7, on: { tool_before: () => void seen.push(name) } })),
    );
    await dispatcher.dispatch("tool_before", toolBefore());
    expect(seen).toEqual(names);
    expect(dispatcher.chain("tool_before").sync.map((r) => r.name)).toEqual(names);
  });

  it("runs builtin, then workspace, then community hooks of equal priority", async () => {
    const seen: string[] = [];
    const hooks = (["builtin", "workspace", "community"] as const).map((origin) =>
      hookOf({ name: `from-${origin}`, on: { tool_before: () => void seen.push(origin) } }, origin),
    );
    const { dispatcher } = await harness(hooks);
    await dispatcher.dispatch("tool_before", toolBefore());
    expect(seen).toEqual(["builtin", "workspace", "community"]);
  });

  it("keeps builtin, workspace, community order for ties even when registered in another order", async () => {
    const seen: string[] = [];
    const hooks = (["community", "builtin", "workspace"] as const).map((origin) =>
      hookOf({ name: `from-${origin}`, on: { tool_before: () => void seen.push(origin) } }, origin),
    );
    const { dispatcher } = await harness(hooks);
    await dispatcher.dispatch("tool_before", toolBefore());
    expect(seen).toEqual(["builtin", "workspace", "community"]);
  });
});

describe("synchronous chain", () => {
  it("each hook sees the ctx as the previous hook left it", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "first",
        on: {
          async tool_before(ctx) {
            await sleep(5);
            argsOf(ctx).command = "ls";
          },
        },
      },
      { name: "second", on: { tool_before: (ctx) => void seen.push(argsOf(ctx).command) } },
    ]);
    const ctx = toolBefore({ args: { command: "ls -la" } });
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(seen).toEqual(["ls"]);
    expect(outcome.ctx).toBe(ctx);
    expect(ctx.args).toEqual({ command: "ls" });
  });

  it("a block ends the chain and names the blocking hook", async () => {
    const called: string[] = [];
    const { dispatcher } = await harness([
      { name: "guard", priority: 10, on: { tool_before: () => ({ block: "rm is not allowed" }) } },
      { name: "later", on: { tool_before: () => void called.push("later") } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "guard", reason: "rm is not allowed" });
    expect(called).toEqual([]);
    expect(outcome.runs.map((r) => r.hook)).toEqual(["guard"]);
  });

  it("a chain where no hook decides allows", async () => {
    const { dispatcher } = await harness([{ name: "quiet", on: { tool_before: () => undefined } }]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.blockedBy).toBeUndefined();
  });

  it("asks from several hooks accumulate into an ask verdict", async () => {
    const { dispatcher } = await harness([
      { name: "ask-one", on: { tool_before: () => ({ ask: "network access" }) } },
      { name: "silent", on: { tool_before: () => undefined } },
      { name: "ask-two", on: { tool_before: () => ({ ask: "writes outside cwd" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("ask");
    expect(outcome.asks).toEqual([
      { hook: "ask-one", reason: "network access" },
      { hook: "ask-two", reason: "writes outside cwd" },
    ]);
  });

  it("a block after an ask wins the verdict", async () => {
    const { dispatcher } = await harness([
      { name: "asker", on: { tool_before: () => ({ ask: "sure?" }) } },
      { name: "blocker", on: { tool_before: () => ({ block: "no" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("blocker");
    expect(outcome.asks).toEqual([{ hook: "asker", reason: "sure?" }]);
  });

  it("a hook that both blocks and asks blocks", async () => {
    const { dispatcher } = await harness([
      { name: "both", on: { tool_before: () => ({ block: "no", ask: "maybe?" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "both", reason: "no" });
  });

  it("injects and notices are kept in chain order, each with its hook's name", async () => {
    const { dispatcher } = await harness([
      { name: "a", on: { tool_before: () => ({ inject: "use rg", notice: "a looked" }) } },
      { name: "b", on: { tool_before: () => ({ notice: "b looked" }) } },
      { name: "c", on: { tool_before: () => ({ inject: "mind the cwd" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.injects).toEqual([
      { hook: "a", text: "use rg" },
      { hook: "c", text: "mind the cwd" },
    ]);
    expect(outcome.notices).toEqual([
      { hook: "a", text: "a looked" },
      { hook: "b", text: "b looked" },
    ]);
  });

  it("continue is honoured at turn_after and dropped with a warning elsewhere", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "more",
        on: { turn_after: () => ({ continue: "tests still fail" }), tool_before: () => ({ continue: "x" }) },
      },
    ]);
    const after = await dispatcher.dispatch("turn_after", turnAfter());
    expect(after.continues).toEqual([{ hook: "more", reason: "tests still fail" }]);
    expect(after.warnings).toEqual([]);
    const before = await dispatcher.dispatch("tool_before", toolBefore());
    expect(before.continues).toEqual([]);
    expect(logger.warnings).toEqual([expect.stringMatching(/"more".*tool_before.*continue/)]);
  });
});

describe("illegal effects", () => {
  it("a block at tool_after is dropped with a warning, its notice still applies and the chain goes on", async () => {
    const called: string[] = [];
    const { dispatcher, logger } = await harness([
      {
        name: "late-guard",
        on: {
          tool_after(ctx) {
            ctx.result = "[redacted]";
            return { block: "too late", notice: "redacted output" };
          },
        },
      },
      { name: "later", on: { tool_after: () => void called.push("later") } },
    ]);
    const ctx = toolAfter();
    const outcome = await dispatcher.dispatch("tool_after", ctx);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.blockedBy).toBeUndefined();
    expect(outcome.notices).toEqual([{ hook: "late-guard", text: "redacted output" }]);
    expect(ctx.result).toBe("[redacted]");
    expect(called).toEqual(["later"]);
    expect(logger.warnings).toEqual([expect.stringMatching(/"late-guard" at tool_after .*"block"/)]);
    expect(outcome.warnings).toMatchObject([{ hook: "late-guard", point: "tool_after" }]);
  });

  it("an ask at turn_before is dropped with a warning", async () => {
    const { dispatcher, logger } = await harness([
      { name: "asker", on: { turn_before: () => ({ ask: "really?" }) } },
    ]);
    const outcome = await dispatcher.dispatch("turn_before", turnBefore());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.asks).toEqual([]);
    expect(logger.warnings).toEqual([expect.stringMatching(/"asker" at turn_before .*"ask"/)]);
  });

  it("changing ctx.tool at tool_before undoes all of that hook's writes, the legal args ones too", async () => {
    const seen: unknown[] = [];
    const { dispatcher, logger } = await harness([
      {
        name: "swapper",
        on: {
          tool_before(ctx) {
            argsOf(ctx).command = "echo hi";
            argsOf(ctx).flags.push("-x");
            ctx.tool = "write_file";
            return { notice: "swapped" };
          },
        },
      },
      { name: "after", on: { tool_before: (ctx) => void seen.push(plain(ctx.args)) } },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(seen).toEqual([before.args]);
    expect(outcome.notices).toEqual([{ hook: "swapper", text: "swapped" }]);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/"swapper" at tool_before changed tool\b.*undone/),
    ]);
  });

  it("adding a prompt field at tool_before is undone", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "prompter",
        on: {
          tool_before(ctx) {
            (ctx as Record<string, unknown>).prompt = "injected";
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(logger.warnings).toEqual([expect.stringMatching(/"prompter" at tool_before changed prompt/)]);
  });

  it("a returned rewrite at a point with nothing rewritable is dropped with a warning", async () => {
    const { dispatcher, logger } = await harness([
      { name: "rewriter", on: { turn_after: () => ({ rewrite: { answer: "other" }, notice: "tried" }) } },
    ]);
    const ctx = turnAfter();
    const outcome = await dispatcher.dispatch("turn_after", ctx);
    expect(ctx.answer).toBe("done");
    expect(outcome.notices).toHaveLength(1);
    expect(logger.warnings).toEqual([
      expect.stringMatching(
        /"rewriter" at turn_after returned a rewrite of answer, where nothing may be rewritten/,
      ),
    ]);
  });

  it("an inject at agent_after, where no model request follows, is dropped with a warning", async () => {
    const { dispatcher, logger } = await harness([
      { name: "late-advice", on: { agent_after: () => ({ inject: "too late", notice: "bye" }) } },
    ]);
    const outcome = await dispatcher.dispatch("agent_after", agentAfter());
    expect(outcome.injects).toEqual([]);
    expect(outcome.notices).toEqual([{ hook: "late-advice", text: "bye" }]);
    expect(outcome.warnings).toEqual([
      expect.objectContaining({ code: "RUN_ERR_EFFECT_DROPPED", hook: "late-advice" }),
    ]);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/"late-advice" at agent_after returned "inject"/),
    ]);
  });

  it("a returned rewrite naming __proto__ cannot reach any prototype, and dispatch does not crash", async () => {
    const { dispatcher } = await harness([
      {
        name: "polluter",
        on: {
          tool_before: () =>
            JSON.parse('{"rewrite":{"args":{"command":"ls"},"__proto__":{"polluted":true}}}'),
        },
      },
    ]);
    const ctx = toolBefore();
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(ctx)).toBe(Object.prototype);
    expect(ctx.args).toEqual({ command: "ls" });
    expect(outcome.verdict).toBe("allow");
  });

  it("a decision with an unknown key is a hook error, and the hook's writes are undone", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "typo",
        on: {
          tool_before(ctx) {
            argsOf(ctx).command = "changed";
            return { blok: "rm" } as never;
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(outcome.verdict).toBe("allow");
    expect(ctx).toStrictEqual(before);
    expect(outcome.runs).toMatchObject([{ hook: "typo", status: "error" }]);
    expect(logger.errors).toEqual([
      expect.stringMatching(/"typo".* at tool_before failed: .*invalid decision/),
    ]);
  });
});

describe("rewrites", () => {
  it("a mutation of args is what the next hook sees", async () => {
    const seen: unknown[] = [];
    const { dispatcher } = await harness([
      {
        name: "safer",
        on: {
          tool_before(ctx) {
            argsOf(ctx).flags.push("--dry-run");
          },
        },
      },
      { name: "reader", on: { tool_before: (ctx) => void seen.push([...argsOf(ctx).flags]) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(seen).toEqual([["-l", "-a", "--dry-run"]]);
    expect(outcome.runs[0]?.effects).toEqual(["rewrite"]);
  });

  it("a returned rewrite of args feeds the next hook like a mutation", async () => {
    const seen: unknown[] = [];
    const { dispatcher } = await harness([
      {
        name: "safer",
        on: { tool_before: (ctx) => ({ rewrite: { args: { ...ctx.args, command: "ls" } } }) },
      },
      { name: "reader", on: { tool_before: (ctx) => void seen.push(plain(ctx.args)) } },
    ]);
    const ctx = toolBefore();
    await dispatcher.dispatch("tool_before", ctx);
    const expected = { ...toolBefore().args, command: "ls" };
    expect(seen).toEqual([expected]);
    expect(ctx.args).toEqual(expected);
  });

  it("args rewritten into a string are refused with a warning and ctx stays as it was", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "breaker",
        on: {
          tool_before(ctx) {
            argsOf(ctx).flags.pop();
            (ctx as Record<string, unknown>).args = "not an object";
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(outcome.runs[0]?.effects).toEqual([]);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/"breaker" at tool_before rewrote args .*invalid/),
    ]);
  });

  it("a tool_after result returned as a number is refused and ctx stays as it was", async () => {
    const { dispatcher, logger } = await harness([
      { name: "counter", on: { tool_after: () => ({ rewrite: { result: 42 } }) } },
    ]);
    const ctx = toolAfter();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_after", ctx);
    expect(ctx).toStrictEqual(before);
    expect(logger.warnings).toEqual([expect.stringMatching(/"counter" at tool_after rewrote result/)]);
  });
});

describe("failing hooks", () => {
  it("a hook that mutates deeply and then throws leaves ctx exactly as before, and the chain goes on", async () => {
    const seen: unknown[] = [];
    const { dispatcher, logger } = await harness([
      {
        name: "wrecker",
        on: {
          tool_before(ctx) {
            const args = argsOf(ctx);
            args.flags.push("-R");
            args.flags.splice(0, 1, "--long", "--all");
            delete (args.env as Partial<Record<string, string>>).PATH;
            Object.defineProperty(args, "command", { value: "rm -rf /" });
            Object.defineProperty(args, "extra", { value: 1, enumerable: true, configurable: true });
            args.history = [{ n: 1 }];
            (args.nested as { list: Array<{ n: number }> }).list = [
              ...(args.nested as { list: Array<{ n: number }> }).list,
              { n: 3 },
            ];
            const list = (args.nested as { list: Array<{ n: number }> }).list;
            (list[0] as { n: number }).n = 100;
            list.reverse();
            throw new Error("boom");
          },
        },
      },
      { name: "reader", on: { tool_before: (ctx) => void seen.push(plain(ctx.args)) } },
    ]);
    const ctx = toolBefore({ args: { ...toolBefore().args, nested: { list: [{ n: 1 }, { n: 2 }] } } });
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(seen).toEqual([before.args]);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs.map((r) => [r.hook, r.status])).toEqual([
      ["wrecker", "error"],
      ["reader", "ok"],
    ]);
    expect(logger.errors).toEqual([expect.stringMatching(/"wrecker".* at tool_before failed: boom/)]);
    expect(outcome.warnings).toEqual([
      expect.objectContaining({
        hook: "wrecker",
        point: "tool_before",
        code: "RUN_ERR_HOOK_THREW",
        message: "boom",
      }),
    ]);
  });

  it("an async hook that rejects after mutating leaves ctx exactly as before", async () => {
    const { dispatcher } = await harness([
      {
        name: "async-wrecker",
        on: {
          async tool_before(ctx) {
            argsOf(ctx).flags.length = 0;
            await sleep(1);
            argsOf(ctx).env.HOME = "/tmp";
            throw new Error("later boom");
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
  });

  it("a ctx a hook kept after its call can no longer be changed", async () => {
    let kept: { args: Record<string, unknown> } | undefined;
    let keptEnv: Record<string, string> | undefined;
    const { dispatcher } = await harness([
      {
        name: "stasher",
        on: {
          tool_before(ctx) {
            kept = ctx;
            keptEnv = argsOf(ctx).env;
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_before", ctx);
    expect(() => {
      argsOf(kept as { args: Record<string, unknown> }).command = "rm -rf /";
    }).toThrow(TypeError);
    expect(() => {
      (keptEnv as Record<string, string>).PATH = "/evil";
    }).toThrow(TypeError);
    expect(ctx).toStrictEqual(before);
  });

  it("onError block makes a failure at tool_before block, naming the hook", async () => {
    const called: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "strict",
        onError: "block",
        on: {
          tool_before() {
            throw new Error("policy server down");
          },
        },
      },
      { name: "later", on: { tool_before: () => void called.push("later") } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("strict");
    expect(outcome.blockedBy?.reason).toContain("policy server down");
    expect(called).toEqual([]);
  });

  it("onError block makes a timeout at tool_before block too", async () => {
    const { dispatcher } = await harness([
      {
        name: "strict-slow",
        onError: "block",
        timeoutMs: 50,
        on: { tool_before: () => new Promise<undefined>(() => {}) },
      },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("strict-slow");
    expect(outcome.runs).toMatchObject([{ hook: "strict-slow", status: "timeout", effects: ["block"] }]);
  });

  it("onError block does not block at tool_after, where nothing can be blocked", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "strict",
        onError: "block",
        on: {
          tool_after() {
            throw new Error("down");
          },
        },
      },
    ]);
    const outcome = await dispatcher.dispatch("tool_after", toolAfter());
    expect(outcome.verdict).toBe("allow");
    expect(logger.errors).toEqual([expect.stringMatching(/"strict".* at tool_after failed/)]);
  });

  it("a hook that never answers times out after its timeoutMs and the chain goes on", async () => {
    const called: string[] = [];
    const { dispatcher, logger } = await harness([
      { name: "stuck", timeoutMs: 50, on: { tool_before: () => new Promise<undefined>(() => {}) } },
      { name: "later", on: { tool_before: () => void called.push("later") } },
    ]);
    const started = Date.now();
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(called).toEqual(["later"]);
    expect(outcome.runs.map((r) => [r.hook, r.status])).toEqual([
      ["stuck", "timeout"],
      ["later", "ok"],
    ]);
    expect(logger.errors).toEqual([expect.stringMatching(/"stuck".* at tool_before timed out/)]);
  });

  it("a timed-out hook's writes, before and after the timeout, do not survive", async () => {
    let lateWrite: unknown = "not attempted";
    const { dispatcher } = await harness([
      {
        name: "slow",
        timeoutMs: 50,
        on: {
          async tool_before(ctx) {
            argsOf(ctx).command = "early";
            await sleep(120);
            try {
              argsOf(ctx).command = "late";
              lateWrite = "succeeded";
            } catch (error) {
              lateWrite = error;
            }
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    await sleep(150);
    expect(lateWrite).toBeInstanceOf(TypeError);
    expect(ctx).toStrictEqual(before);
  });
});

describe("background hooks", () => {
  it("dispatch resolves without waiting for a background hook", async () => {
    const gate = deferred();
    let finished = false;
    const { dispatcher } = await harness([
      {
        name: "slow-audit",
        mode: "background",
        timeoutMs: 60_000,
        on: {
          async tool_before() {
            await gate.promise;
            finished = true;
          },
        },
      },
    ]);
    const dispatched = dispatcher.dispatch("tool_before", toolBefore()).then(() => "resolved");
    expect(await Promise.race([dispatched, sleep(1_000).then(() => "still waiting")])).toBe("resolved");
    expect(finished).toBe(false);
    gate.resolve();
    await dispatcher.drain();
    expect(finished).toBe(true);
  });

  it("a background hook works on a copy and its decision is ignored", async () => {
    const { dispatcher } = await harness([
      {
        name: "meddler",
        mode: "background",
        on: {
          tool_before(ctx) {
            argsOf(ctx).command = "rm -rf /";
            argsOf(ctx).flags.push("-f");
            return { block: "no", inject: "x", notice: "y" };
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    await dispatcher.drain();
    expect(ctx).toStrictEqual(before);
    expect(outcome).toMatchObject({ verdict: "allow", injects: [], notices: [], runs: [] });
  });

  it("a background hook learns the chain's verdict from api.outcome", async () => {
    const outcomes: Array<HookApi["outcome"]> = [];
    const { dispatcher } = await harness([
      { name: "guard", on: { tool_before: () => ({ block: "denied" }) } },
      {
        name: "audit",
        mode: "background",
        on: { tool_before: (_ctx, api) => void outcomes.push(api.outcome) },
      },
    ]);
    await dispatcher.dispatch("tool_before", toolBefore());
    await dispatcher.drain();
    expect(outcomes).toEqual([{ verdict: "block", hook: "guard", reason: "denied" }]);
  });

  it("past backgroundLimit calls in flight, a background hook is dropped with a warning", async () => {
    const gate = deferred();
    const started: string[] = [];
    const background = (name: string) => ({
      name,
      mode: "background" as const,
      on: {
        async tool_before() {
          started.push(name);
          await gate.promise;
        },
      },
    });
    const { dispatcher, logger } = await harness(
      [background("bg-a"), background("bg-b"), background("bg-c")],
      {
        backgroundLimit: 2,
      },
    );
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    expect(started).toEqual(["bg-a", "bg-b"]);
    expect(logger.warnings).toEqual([expect.stringMatching(/"bg-c" at tool_before was not run/)]);
    expect(outcome.warnings).toMatchObject([{ hook: "bg-c" }]);
    gate.resolve();
    await dispatcher.drain();
  });

  it("dispatch at agent_after resolves only after background hooks finish", async () => {
    const gate = deferred();
    const finished: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "tool-audit",
        mode: "background",
        on: {
          async tool_before() {
            await gate.promise;
            finished.push("tool-audit");
          },
        },
      },
      {
        name: "final-audit",
        mode: "background",
        on: {
          async agent_after() {
            await sleep(20);
            finished.push("final-audit");
          },
        },
      },
    ]);
    await dispatcher.dispatch("tool_before", toolBefore());
    let settled = false;
    const end = dispatcher.dispatch("agent_after", agentAfter()).then(() => {
      settled = true;
    });
    await sleep(40);
    expect(settled).toBe(false);
    gate.resolve();
    await end;
    expect(finished.sort()).toEqual(["final-audit", "tool-audit"]);
  });

  it("a ctx that cannot be copied skips the background hook with a warning, and dispatch still resolves", async () => {
    const ran: string[] = [];
    const { dispatcher } = await harness([
      { name: "observer", mode: "background", on: { tool_before: () => void ran.push("observer") } },
    ]);
    const ctx = { ...toolBefore(), extra: () => "functions cannot be copied" };
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    await dispatcher.drain();
    expect(ran).toEqual([]);
    expect(outcome.warnings).toEqual([
      expect.objectContaining({ hook: "observer", message: expect.stringContaining("cannot be copied") }),
    ]);
  });

  it("a failing background hook is logged with its name and point and harms nothing", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "flaky",
        mode: "background",
        on: {
          tool_before() {
            throw new Error("disk full");
          },
        },
      },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore());
    await dispatcher.drain();
    expect(outcome.verdict).toBe("allow");
    expect(logger.errors).toEqual([expect.stringMatching(/"flaky" at tool_before failed: disk full/)]);
  });
});
