import { describe, expect, it } from "vitest";
import type { Point } from "../../../core/events.js";
import type { HookDefinition } from "../../../core/hook.js";
import { toolBefore } from "../../helpers/ctx.js";
import { harness } from "../helpers.js";

type Args = Record<string, unknown>;

/**
 * Writes a trusted hook can make that pass the zod schema (args is a record of unknown) but are
 * not data: the ctx must go on to command and http hooks, matchers, the audit log and the model as
 * JSON, and must not keep code or views of the ctx that run or throw after the call.
 */
const attacks: Record<string, { write: (args: Args) => void; issue: RegExp }> = {
  "a cycle": {
    write: (args) => {
      args.self = args;
    },
    issue: /args\.self: a cycle/,
  },
  "a bigint": {
    write: (args) => {
      args.count = 10n;
    },
    issue: /args\.count: a bigint/,
  },
  "a function": {
    write: (args) => {
      args.run = () => "rm -rf /";
    },
    issue: /args\.run: a function/,
  },
  "a Map holding a view of the ctx (revoked after the call)": {
    write: (args) => {
      args.env = new Map([["view", args.flags]]);
    },
    issue: /args\.env: a Map/,
  },
  "a getter returning a view of the ctx": {
    write: (args) => {
      Object.defineProperty(args, "later", { get: () => args, enumerable: true, configurable: true });
    },
    issue: /args\.later: a getter or setter/,
  },
  "a Proxy of the hook's own": {
    write: (args) => {
      args.env = new Proxy({ PATH: "/usr/bin" }, {});
    },
    issue: /args\.env: a Proxy/,
  },
  "nesting 1000 levels deep": {
    write: (args) => {
      let deep: Args = {};
      for (let i = 0; i < 1_000; i++) deep = { d: deep };
      args.deep = deep;
    },
    issue: /args\.deep(\.d)+: nested deeper than 100 levels/,
  },
};

/** A later hook with a matcher on args: it must still run, and see the ctx as it was. */
const watcher = (seen: string[]): HookDefinition => ({
  name: "watcher",
  priority: 2,
  matcher: { args: "ls" },
  on: { tool_before: (ctx) => void seen.push(JSON.stringify(ctx.args)) },
});

describe("a rewrite into something that is not JSON data", () => {
  for (const [what, { write, issue }] of Object.entries(attacks)) {
    it(`${what} is refused whole and undone, with a warning, and the chain goes on`, async () => {
      const seen: string[] = [];
      const { dispatcher, logger } = await harness([
        {
          name: "writer",
          priority: 1,
          on: {
            tool_before: (ctx) => {
              (ctx.args as Args).command = "ls /tmp";
              write(ctx.args as Args);
            },
          },
        },
        watcher(seen),
      ]);
      const ctx = toolBefore();
      const before = structuredClone(ctx);
      const outcome = await dispatcher.dispatch("tool_before", ctx);
      expect(ctx).toStrictEqual(before);
      expect(JSON.parse(JSON.stringify(ctx))).toEqual(before);
      expect(seen).toEqual([JSON.stringify(before.args)]);
      expect(outcome.runs.map((r) => [r.hook, r.status, r.effects])).toEqual([
        ["writer", "ok", []],
        ["watcher", "ok", []],
      ]);
      expect(outcome.warnings).toMatchObject([{ hook: "writer", code: "RUN_ERR_EFFECT_DROPPED" }]);
      expect(logger.warnings).toEqual([expect.stringMatching(issue)]);
      expect(logger.warnings[0]).toMatch(/its changes were undone/);
    });
  }

  it("a returned rewrite holding a Map is refused the same way", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "writer",
        on: { tool_before: (ctx) => ({ rewrite: { args: { ...ctx.args, env: new Map() } } }) },
      },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(logger.warnings).toEqual([expect.stringMatching(/args\.env: a Map is not JSON data/)]);
  });

  it("a returned rewrite nested too deep to store fails the hook (fail-open), instead of crashing dispatch", async () => {
    let deep: Args = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const { dispatcher, logger } = await harness([
      {
        name: "writer",
        priority: 1,
        on: { tool_before: () => ({ rewrite: { args: deep }, block: "never applied" }) },
      },
      { name: "after", priority: 2, on: { tool_before: () => ({ notice: "ran" }) } },
    ]);
    const ctx = toolBefore();
    const before = structuredClone(ctx);
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(ctx).toStrictEqual(before);
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs.map((r) => [r.hook, r.status])).toEqual([
      ["writer", "error"],
      ["after", "ok"],
    ]);
    expect(logger.errors).toEqual([expect.stringMatching(/"writer".*failed/)]);
  });

  it("a getter defined on the ctx itself, in place of a rewritable field, is refused", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "writer",
        on: {
          turn_before: (ctx) =>
            void Object.defineProperty(ctx, "prompt", {
              get: () => "changing",
              enumerable: true,
              configurable: true,
            }),
        },
      },
    ]);
    const ctx = { sessionId: "s1", prompt: "hello", history: [] };
    await dispatcher.dispatch("turn_before" as Point, ctx);
    expect(Object.getOwnPropertyDescriptor(ctx, "prompt")).toEqual({
      value: "hello",
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(logger.warnings).toEqual([expect.stringMatching(/prompt: a getter or setter is not JSON data/)]);
  });

  it("plain data with shared (not cyclic) parts is still accepted", async () => {
    const { dispatcher, logger } = await harness([
      {
        name: "writer",
        on: {
          tool_before: (ctx) => {
            const shared = { a: [1, "two", null, true] };
            (ctx.args as Args).left = shared;
            (ctx.args as Args).right = { again: shared, missing: undefined };
          },
        },
      },
    ]);
    const ctx = toolBefore();
    const outcome = await dispatcher.dispatch("tool_before", ctx);
    expect(logger.warnings).toEqual([]);
    expect(outcome.runs[0]?.effects).toEqual(["rewrite"]);
    expect((ctx.args as Args).right).toEqual({ again: { a: [1, "two", null, true] }, missing: undefined });
  });
});
