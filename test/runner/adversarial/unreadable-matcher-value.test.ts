import { describe, expect, it } from "vitest";
import { compileMatcher } from "../../../runner/chain/matcher.js";
import { toolBefore } from "../../helpers/ctx.js";
import { harness } from "../helpers.js";

/** A tool_before ctx whose args refer to themselves, as an adapter might pass in. */
function cyclicCtx(command: string) {
  const ctx = toolBefore({ args: { command } });
  (ctx.args as Record<string, unknown>).self = ctx.args;
  return ctx;
}

/** A tool_before ctx whose args getter throws when read (dispatch without validation reads it first). */
function trappedCtx() {
  const ctx = toolBefore();
  Object.defineProperty(ctx, "args", {
    get() {
      throw new Error("args are not readable");
    },
    enumerable: true,
  });
  return ctx;
}

describe("a matcher over a ctx value that JSON.stringify refuses", () => {
  it("still tests a cyclic value by its content, instead of crashing dispatch", async () => {
    const { dispatcher } = await harness([
      { name: "guard", matcher: { args: "rm -rf" }, on: { tool_before: () => ({ block: "no" }) } },
    ]);
    expect((await dispatcher.dispatch("tool_before", cyclicCtx("rm -rf /"))).verdict).toBe("block");
    expect((await dispatcher.dispatch("tool_before", cyclicCtx("ls"))).verdict).toBe("allow");
  });

  it("tests a bigint by its digits", () => {
    const test = compileMatcher({ args: '"n":"12345"' }, "m", ["tool_before"]).get("tool_before");
    expect(test?.({ sessionId: "s", args: { n: 12345n } })).toBe(true);
  });

  it("a matcher that throws (a getter on the ctx) is that hook's failure: fail-open by default", async () => {
    const { dispatcher, logger } = await harness([
      { name: "guard", priority: 1, matcher: { args: "rm" }, on: { tool_before: () => ({ block: "no" }) } },
      { name: "after", priority: 2, on: { tool_before: () => ({ notice: "ran" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", trappedCtx());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs.map((r) => [r.hook, r.status])).toEqual([
      ["guard", "error"],
      ["after", "ok"],
    ]);
    expect(logger.errors).toEqual([expect.stringMatching(/"guard".*args are not readable/)]);
  });

  it("a matcher that throws blocks a hook whose onError is block", async () => {
    const { dispatcher } = await harness([
      { name: "guard", onError: "block", matcher: { args: "rm" }, on: { tool_before: () => undefined } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", trappedCtx());
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.hook).toBe("guard");
  });

  it("a background hook whose matcher throws is skipped with a warning", async () => {
    const { dispatcher, logger } = await harness([
      { name: "bg", mode: "background", matcher: { args: "rm" }, on: { tool_before: () => undefined } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", trappedCtx());
    expect(outcome.warnings).toMatchObject([{ hook: "bg", code: "RUN_ERR_EFFECT_DROPPED" }]);
    expect(logger.warnings).toEqual([expect.stringMatching(/"bg".*was not run: its matcher failed/)]);
  });
});
