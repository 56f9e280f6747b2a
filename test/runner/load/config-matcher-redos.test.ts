import { afterEach, describe, expect, it } from "vitest";
import { type Hooks, loadHooks } from "../../../index.js";
import { toolBefore, turnBefore } from "../../helpers/ctx.js";
import { recordingLogger } from "../../helpers/logger.js";
import { workspace } from "../../helpers/temp.js";

/** hookyard.json's matchers (its entries', per-hook overrides', that agent's matcher strings) go through the same regex policy as a package's. */

const loaded: Hooks[] = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((hooks) => hooks.close()));
});

async function load(files: Record<string, string | object>) {
  const root = await workspace(files);
  const hooks = await loadHooks({ cwd: root, logger: recordingLogger() });
  loaded.push(hooks);
  return hooks;
}

describe("hookyard.json matchers cannot stall the agent (ReDoS)", () => {
  it("an entry's exponential matcher, an override's and an agent matcher string are refused at load, by name; the rest load", async () => {
    const hooks = await load({
      ".hookyard/hooks/guard.mjs": `export default { name: "guard", on: { tool_before: () => ({ block: "guard" }) } };`,
      "hookyard.json": {
        hooks: { guard: { matcher: { tool: "^(a|a)*$" } } },
        rules: [
          {
            name: "nested",
            engine: "command",
            command: "true",
            events: ["tool_before"],
            matcher: { args: "(a+)+$" },
          },
          {
            name: "agent-form",
            engine: "command",
            profile: "claude",
            command: "true",
            events: ["tool_before"],
            matcher: "(Bash|Bash)+",
          },
          {
            name: "fine",
            engine: "command",
            command: "true",
            events: ["tool_before"],
            matcher: { args: "rm\\s+-rf" },
          },
        ],
      },
    });
    const problems = Object.fromEntries(hooks.problems.map((p) => [p.name, [p.code, p.message]]));
    expect(problems).toEqual({
      guard: [
        "RUN_ERR_BAD_MATCHER",
        expect.stringContaining('matcher "tool" pattern "^(a|a)*$" repeats a choice'),
      ],
      nested: [
        "RUN_ERR_BAD_MATCHER",
        expect.stringContaining('matcher "args" pattern "(a+)+$" repeats a group'),
      ],
      "agent-form": [
        "RUN_ERR_CONFIG_INVALID",
        expect.stringContaining('matcher "(Bash|Bash)+" repeats a choice'),
      ],
    });
    const chain = hooks
      .list()
      .find((c) => c.point === "tool_before")
      ?.hooks.filter((h) => h.engine !== "broken")
      .map((h) => h.name);
    expect(chain).toContain("fine");
    expect(chain).not.toContain("nested");

    const started = performance.now();
    await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "a".repeat(30), args: { command: "a".repeat(30) } }),
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("a hook refused for its matcher fails closed at the points it declared, and nowhere else", async () => {
    const hooks = await load({
      "hookyard.json": {
        rules: [
          {
            name: "nested",
            engine: "command",
            command: "true",
            events: ["tool_before"],
            matcher: { tool: "(a+)+$" },
          },
        ],
      },
    });
    expect(hooks.problems.map((p) => [p.name, p.code, p.points])).toEqual([
      ["nested", "RUN_ERR_BAD_MATCHER", ["tool_before"]],
    ]);
    const tool = await hooks.dispatch("tool_before", toolBefore());
    expect(tool.verdict).toBe("block");
    const prompt = await hooks.dispatch("turn_before", turnBefore());
    expect(prompt.verdict).not.toBe("block");
  });
});
