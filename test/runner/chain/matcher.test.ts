import { describe, expect, it } from "vitest";
import { RunnerError } from "../../../core/errors.js";
import type { Matcher } from "../../../core/hook.js";
import { Dispatcher } from "../../../runner/chain/dispatch.js";
import { compileMatcher } from "../../../runner/chain/matcher.js";
import { agentAfter, toolAfter, toolBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { harness, hookOf } from "../helpers.js";

describe("matchers", () => {
  it("a tool matcher skips calls to other tools without calling the hook", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "bash-only",
        matcher: { tool: "^bash$" },
        on: { tool_before: (ctx) => void seen.push(ctx.tool) },
      },
    ]);
    for (const tool of ["bash", "write_file", "bash2", "xbash"]) {
      await dispatcher.dispatch("tool_before", toolBefore({ tool }));
    }
    expect(seen).toEqual(["bash"]);
  });

  it("a skipped hook leaves no run and no decision in the outcome", async () => {
    const { dispatcher } = await harness([
      { name: "guard", matcher: { tool: "^bash$" }, on: { tool_before: () => ({ block: "no" }) } },
    ]);
    const outcome = await dispatcher.dispatch("tool_before", toolBefore({ tool: "read_file" }));
    expect(outcome.verdict).toBe("allow");
    expect(outcome.runs).toEqual([]);
  });

  it("every field of a matcher must match", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "rm-guard",
        matcher: { tool: "^bash$", args: "rm -rf" },
        on: { tool_before: (ctx) => void seen.push(String(ctx.args.command)) },
      },
    ]);
    await dispatcher.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    await dispatcher.dispatch("tool_before", toolBefore({ tool: "sh", args: { command: "rm -rf /" } }));
    await dispatcher.dispatch("tool_before", toolBefore({ args: { command: "rm -rf /" } }));
    expect(seen).toEqual(["rm -rf /"]);
  });

  it("a matcher sees the ctx as the earlier hooks of the chain left it", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "rewriter",
        priority: 1,
        on: {
          tool_before(ctx) {
            ctx.args.command = "rm -rf build";
          },
        },
      },
      { name: "rm-guard", matcher: { args: "rm " }, on: { tool_before: () => void seen.push("guard") } },
    ]);
    await dispatcher.dispatch("tool_before", toolBefore({ args: { command: "make clean" } }));
    expect(seen).toEqual(["guard"]);
  });

  it("a field the point does not carry is ignored there", async () => {
    const seen: string[] = [];
    const { dispatcher } = await harness([
      {
        name: "bash-audit",
        matcher: { tool: "^bash$" },
        on: {
          tool_after: () => void seen.push("tool_after"),
          agent_after: () => void seen.push("agent_after"),
        },
      },
    ]);
    await dispatcher.dispatch("tool_after", toolAfter({ tool: "write_file" }));
    await dispatcher.dispatch("agent_after", agentAfter());
    expect(seen).toEqual(["agent_after"]);
  });

  it("a field the point carries but the ctx lacks fails the match", () => {
    const test = compileMatcher({ tool: ".*" }, "h", ["tool_before"]).get("tool_before");
    expect(test?.({ sessionId: "s1", args: {}, callId: "c" })).toBe(false);
    expect(test?.({ sessionId: "s1", tool: "x", args: {}, callId: "c" })).toBe(true);
  });

  it("a hook without a matcher runs at every one of its points", () => {
    const tests = compileMatcher(undefined, "h", ["tool_before", "notify"]);
    expect([...tests.keys()]).toEqual(["tool_before", "notify"]);
    expect(tests.get("notify")?.({ sessionId: "s1", message: "hi", level: "info" })).toBe(true);
  });

  it.each<[string, Matcher, RegExp]>([
    ["an invalid regex", { tool: "^(bash" }, /not a valid JavaScript regular expression/],
    ["a field no point of the hook carries", { toool: "^bash$" }, /"toool" exists at none/],
    ["a field only other points carry", { prompt: "x" }, /"prompt" exists at none/],
  ])("%s is refused with RUN_ERR_BAD_MATCHER naming the hook", (_what, matcher, message) => {
    const compile = () => compileMatcher(matcher, "bad-hook", ["tool_before", "tool_after"]);
    expect(compile).toThrow(RunnerError);
    expect(compile).toThrow(message);
    expect(compile).toThrow(/"bad-hook"/);
    expect(compile).toThrow(expect.objectContaining({ code: "RUN_ERR_BAD_MATCHER", hook: "bad-hook" }));
  });

  it("a dispatcher refuses to build around a hook with a bad matcher", () => {
    const hook = hookOf({ name: "bad", matcher: { tool: "[" }, on: { tool_before: () => undefined } });
    const build = () => new Dispatcher([hook], { logger: recordingLogger(), apiFor: () => ({}) as never });
    expect(build).toThrow(expect.objectContaining({ code: "RUN_ERR_BAD_MATCHER" }));
  });
});
