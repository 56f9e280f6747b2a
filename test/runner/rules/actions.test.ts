import { describe, expect, it } from "vitest";
import { toolAfter, toolBefore, turnAfter, turnBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

const rules = (action: string) => ({
  ".hookyard/rules/tool.md": ruleFile(`event: bash\naction: ${action}\npattern: rm -rf`, "No rm -rf here."),
  ".hookyard/rules/prompt.md": ruleFile(
    `event: prompt\naction: ${action}\npattern: deploy`,
    "No deploys today.",
  ),
  ".hookyard/rules/stop.md": ruleFile(
    `event: stop\naction: ${action}\npattern: done`,
    "Run the tests first.",
  ),
});

describe("rules: warn", () => {
  it("is a notice for the user and an inject for the model, and blocks nothing", async () => {
    const { hooks } = await rulesWorkspace(rules("warn"));
    const tool = await hooks.dispatch("tool_before", toolBefore({ args: { command: "rm -rf build" } }));
    expect(tool.verdict).toBe("allow");
    expect(tool.notices).toEqual([{ hook: "rules", text: "[tool] No rm -rf here." }]);
    expect(tool.injects).toEqual([{ hook: "rules", text: "[tool] No rm -rf here." }]);

    const prompt = await hooks.dispatch("turn_before", turnBefore("deploy it"));
    expect(prompt.verdict).toBe("allow");
    expect(prompt.injects.map((i) => i.text)).toEqual(["[prompt] No deploys today."]);

    const stop = await hooks.dispatch("turn_after", turnAfter());
    expect(stop.continues).toEqual([]);
    expect(stop.notices.map((n) => n.text)).toEqual(["[stop] Run the tests first."]);
  });

  it("is the default action", async () => {
    const { hooks } = await rulesWorkspace({ ".hookyard/rules/w.md": ruleFile("event: bash\npattern: ls") });
    const outcome = await hooks.dispatch("tool_before", toolBefore());
    expect(outcome.verdict).toBe("allow");
    expect(outcome.notices).toHaveLength(1);
  });
});

describe("rules: block", () => {
  it("blocks a tool call, with the message as the reason", async () => {
    const { hooks } = await rulesWorkspace(rules("block"));
    const outcome = await hooks.dispatch("tool_before", toolBefore({ args: { command: "rm -rf build" } }));
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy).toEqual({ hook: "rules", reason: "[tool] No rm -rf here." });
    const other = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    expect(other.verdict).toBe("allow");
  });

  it("blocks a prompt, with the message as the reason", async () => {
    const { hooks } = await rulesWorkspace(rules("block"));
    const outcome = await hooks.dispatch("turn_before", turnBefore("please deploy"));
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.reason).toBe("[prompt] No deploys today.");
  });

  it("at turn_after asks for another turn, with the message as its input", async () => {
    const { hooks } = await rulesWorkspace(rules("block"));
    const outcome = await hooks.dispatch("turn_after", turnAfter());
    expect(outcome.continues).toEqual([{ hook: "rules", reason: "[stop] Run the tests first." }]);
    expect(outcome.warnings).toEqual([]);
  });

  it("wins over warnings, which still reach the model; several matches are all named", async () => {
    const { hooks } = await rulesWorkspace({
      ".hookyard/rules/a-block.md": ruleFile("event: bash\naction: block\npattern: push", "Do not push."),
      ".hookyard/rules/b-block.md": ruleFile("event: bash\naction: block\npattern: force", "Never force."),
      ".hookyard/rules/c-warn.md": ruleFile("event: bash\npattern: git", "Mind the branch."),
    });
    const outcome = await hooks.dispatch(
      "tool_before",
      toolBefore({ args: { command: "git push --force" } }),
    );
    expect(outcome.blockedBy?.reason).toBe("[a-block] Do not push.\n\n[b-block] Never force.");
    expect(outcome.injects.map((i) => i.text)).toEqual(["[c-warn] Mind the branch."]);
  });

  it("at a point that cannot block is a load problem naming the field, not a silent warning", async () => {
    const { hooks, logger } = await rulesWorkspace({
      ".hookyard/rules/late.md": ruleFile("event: tool_after\naction: block\npattern: x"),
      ".hookyard/rules/fine.md": ruleFile(
        "event: tool_after\nconditions:\n  - field: result\n    pattern: total",
        "Saw the listing.",
      ),
    });
    expect(hooks.problems).toEqual([
      expect.objectContaining({
        name: "late",
        code: "RUN_ERR_HOOK_INVALID",
        message: expect.stringMatching(/^action: /),
      }),
    ]);
    expect(logger.errors.join("\n")).toContain("late.md");
    const outcome = await hooks.dispatch("tool_after", toolAfter());
    expect(outcome.notices.map((n) => n.text)).toEqual(["[fine] Saw the listing."]);
  });
});
