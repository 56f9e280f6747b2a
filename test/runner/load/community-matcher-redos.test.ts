import { afterEach, describe, expect, it } from "vitest";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { toolBefore } from "../../helpers/ctx.js";
import { installFixture, noticeHook } from "../../helpers/lock-fixture.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

/**
 * A hook package's matcher runs in the agent's own process, outside the hook's sandbox: before the
 * one regex policy, `{ "args": "(a+)+$" }` and a tool argument of 27 a's cost 21 s of CPU there.
 */

const loaded: Hooks[] = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((hooks) => hooks.close()));
});

async function load(root: string) {
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger });
  loaded.push(hooks);
  return { hooks, logger };
}

/** Exponential on a near miss: 2^n ways to split n a's, and the args JSON ends in `"}`, never in a. */
const redos = "(a+)+$";
/** Polynomial, so it passes the static check, but 8 stars try C(48, 8) splits of 40 word characters. */
const slow = "\\w*\\w*\\w*\\w*\\w*\\w*\\w*\\w*;";
const attack = toolBefore({ args: { command: "a".repeat(40) } });

const blockingHook = (name: string) => `import { defineHook } from "hookyard";
export default defineHook({
  name: ${JSON.stringify(name)},
  on: { tool_before: () => ({ block: ${JSON.stringify(`${name} checked it`)} }) },
});
`;

describe("a matcher cannot stall the agent (ReDoS)", () => {
  it("a community hook whose manifest matcher is exponential is refused at load, naming the field, the pattern and why; the pattern never runs", async () => {
    const root = await workspace();
    await installFixture(root, [
      {
        name: "evil-guard",
        source: blockingHook("evil-guard"),
        hookyard: { events: ["tool_before"], effects: ["block"], matcher: { args: redos } },
      },
      {
        name: "plain",
        source: noticeHook("plain", '"plain ran"'),
        hookyard: { events: ["tool_before"], effects: ["notice"], matcher: { args: "aaa" } },
      },
    ]);
    const { hooks } = await load(root);
    const problem = hooks.problems.find((p) => p.name === "evil-guard");
    expect(problem?.code).toBe("RUN_ERR_BAD_MATCHER");
    expect(problem?.message).toContain('matcher "args" pattern "(a+)+$" repeats a group that itself repeats');
    expect(problem?.message).toContain("repeat the inner part only");

    // 30 a's: run unbounded, the refused pattern alone would take minutes here.
    const started = performance.now();
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "a".repeat(30) } }));
    expect(performance.now() - started).toBeLessThan(2_000);
    // The guard is not in force, so its stand-in refuses the call, naming the pattern; it never ran.
    expect(outcome.blockedBy?.hook).toBe("evil-guard");
    expect(outcome.blockedBy?.reason).toContain('pattern "(a+)+$" repeats a group');
    expect(outcome.runs.map((run) => [run.hook, run.engine])).toEqual([["evil-guard", "broken"]]);
  });

  it("a workspace hook's exponential matcher is refused the same way", async () => {
    const root = await workspace({
      ".hookyard/hooks/overlap.mjs": `export default { name: "overlap", matcher: { tool: "^(b|ba|bas|bash)+$" }, on: { tool_before: () => ({ block: "no" }) } };`,
    });
    const { hooks } = await load(root);
    expect(hooks.problems.map((p) => [p.name, p.code])).toEqual([["overlap", "RUN_ERR_BAD_MATCHER"]]);
    expect(hooks.problems[0]?.message).toMatch(
      /matcher "tool" pattern "\^\(b\|ba\|bas\|bash\)\+\$" repeats a choice whose branches can start with the same character/,
    );
  });

  it("a slow matcher that passes the static check is stopped by its budget, and the guard runs (fails closed), warning with the hook and the field", async () => {
    const root = await workspace({
      ".hookyard/hooks/slow-guard.mjs": `export default { name: "slow-guard", matcher: { args: ${JSON.stringify(slow)} }, on: { tool_before: () => ({ block: "slow-guard checked it" }) } };`,
    });
    const { hooks, logger } = await load(root);
    expect(hooks.problems).toEqual([]);

    const started = performance.now();
    const outcome = await hooks.dispatch("tool_before", attack);
    expect(performance.now() - started).toBeLessThan(2_000);
    // Counted as "no match", this input would be the one that skips the guard.
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "slow-guard", reason: "slow-guard checked it" });
    expect(outcome.warnings).toEqual([
      expect.objectContaining({
        hook: "slow-guard",
        point: "tool_before",
        code: "RUN_ERR_MATCHER_TIMEOUT",
        message: expect.stringContaining(
          'its matcher "args" took more than 50 ms on this input and was stopped',
        ),
      }),
    ]);
    expect(logger.warnings).toEqual([
      expect.stringMatching(/^hook "slow-guard" at tool_before ran: its matcher "args"/),
    ]);

    // Every time: a slow input never switches the guard off, and a plain one is tested as usual.
    expect((await hooks.dispatch("tool_before", attack)).verdict).toBe("block");
    expect((await hooks.dispatch("tool_before", toolBefore())).verdict).toBe("allow");
  });

  it("a sandboxed community hook whose matcher runs out of its budget still runs and blocks", async () => {
    const root = await workspace();
    await installFixture(root, [
      {
        name: "slow-pkg",
        source: blockingHook("slow-pkg"),
        hookyard: { events: ["tool_before"], effects: ["block"], matcher: { args: slow } },
      },
    ]);
    const { hooks, logger } = await load(root);
    expect(hooks.problems).toEqual([]);
    const outcome = await hooks.dispatch("tool_before", attack);
    expect(outcome.blockedBy).toEqual({ hook: "slow-pkg", reason: "slow-pkg checked it" });
    expect(outcome.warnings.map((w) => [w.hook, w.code])).toEqual([["slow-pkg", "RUN_ERR_MATCHER_TIMEOUT"]]);
    expect(logger.warnings.join("\n")).toContain('hook "slow-pkg" at tool_before ran: its matcher "args"');
  });
});
