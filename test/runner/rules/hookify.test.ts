import { describe, expect, it } from "vitest";
import { runAgent } from "../../../runner/agent/loop.js";
import { ScriptedModel } from "../../../runner/agent/models/scripted.js";
import { toolBefore, turnBefore } from "../../helpers/ctx.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

/** The plugin's own file layout: `.claude/hookify.<name>.local.md`. */
const hookify = (name: string, front: string, message?: string) => ({
  [`.claude/hookify.${name}.local.md`]: ruleFile(front, message),
});

describe("hookify files: the plugin's known defects, fixed", () => {
  it("defect 1 fixed: the block reason reaches the model (the tool result carries the rule's message)", async () => {
    const { root, hooks } = await rulesWorkspace(
      hookify(
        "no-force",
        "name: no-force-push\nenabled: true\nevent: bash\naction: block\npattern: push\\s+--force",
        "Open a PR instead.",
      ),
    );
    const outcome = await hooks.dispatch(
      "tool_before",
      toolBefore({ args: { command: "git push --force" } }),
    );
    expect(outcome.blockedBy).toEqual({ hook: "hookify", reason: "[no-force-push] Open a PR instead." });

    const model = new ScriptedModel(
      ScriptedModel.parse({
        responses: [
          { toolCalls: [{ name: "bash", args: { command: "git push --force" } }] },
          { content: "ok" },
        ],
      }),
    );
    await runAgent({ hooks, model, prompt: "ship it", cwd: root, maxSteps: 3 });
    const toolResult = model.requests[1]?.messages.find((m) => m.role === "tool");
    expect(toolResult?.content).toBe('Blocked by hook "hookify": [no-force-push] Open a PR instead.');
  });

  it("defect 2 fixed: prompt rules match the prompt, in the one-line form and through the user_prompt field", async () => {
    const { hooks } = await rulesWorkspace({
      ...hookify("one-line", "event: prompt\npattern: deploy", "One-line rule fired."),
      ...hookify(
        "field",
        "event: prompt\nconditions:\n  - field: user_prompt\n    operator: contains\n    pattern: deploy",
        "Field rule fired.",
      ),
    });
    const outcome = await hooks.dispatch("turn_before", turnBefore("please deploy the preview"));
    expect(outcome.notices.map((n) => n.text)).toEqual([
      "[field] Field rule fired.\n\n[one-line] One-line rule fired.",
    ]);
    expect((await hooks.dispatch("turn_before", turnBefore("write the docs"))).notices).toEqual([]);
  });

  it("defect 3 fixed: a prompt block blocks the prompt", async () => {
    const { hooks } = await rulesWorkspace(
      hookify(
        "freeze",
        "event: prompt\naction: block\npattern: production",
        "Production is frozen this week.",
      ),
    );
    const outcome = await hooks.dispatch("turn_before", turnBefore("deploy to production"));
    expect(outcome.verdict).toBe("block");
    expect(outcome.blockedBy?.reason).toBe("[freeze] Production is frozen this week.");
  });

  it("defect 4 fixed: unmapped tools are not matched by every rule; a tool event matches only its tools", async () => {
    const { hooks } = await rulesWorkspace({
      ...hookify(
        "env",
        "event: file\naction: block\nconditions:\n  - field: file_path\n    pattern: \\.env$",
        "Not .env.",
      ),
      ...hookify("any-command", "event: bash\naction: block\npattern: .", "No commands."),
    });
    // A read, a web fetch and an MCP tool carry file_path/command arguments too; no rule is about them.
    for (const call of [
      toolBefore({ tool: "read_file", args: { path: ".env" } }),
      toolBefore({ tool: "WebFetch", args: { file_path: ".env", command: "get" } }),
      toolBefore({ tool: "mcp__shell__run", args: { command: "ls" } }),
    ]) {
      expect((await hooks.dispatch("tool_before", call)).verdict).toBe("allow");
    }
    const write = await hooks.dispatch(
      "tool_before",
      toolBefore({ tool: "write_file", args: { path: ".env", content: "" } }),
    );
    expect(write.blockedBy?.reason).toBe("[env] Not .env.");
    const bash = await hooks.dispatch("tool_before", toolBefore({ args: { command: "ls" } }));
    expect(bash.blockedBy?.reason).toBe("[any-command] No commands.");
  });
});

describe("hookify files: read as the plugin reads them", () => {
  it("regexes ignore case, the agent's tool names count when an adapter keeps them, tool_matcher narrows", async () => {
    const { hooks } = await rulesWorkspace({
      ...hookify("console", "event: file\ntool_matcher: Edit\npattern: console\\.log", "No console.log."),
    });
    const edit = toolBefore({
      tool: "write_file",
      tool_name: "Edit",
      args: { file_path: "src/a.ts", old_string: "x", new_string: "CONSOLE.LOG(x)" },
    });
    expect((await hooks.dispatch("tool_before", edit)).notices.map((n) => n.text)).toEqual([
      "[console] No console.log.",
    ]);
    const write = toolBefore({
      tool: "write_file",
      tool_name: "Write",
      args: { file_path: "a.ts", content: "console.log(1)" },
    });
    expect((await hooks.dispatch("tool_before", write)).notices).toEqual([]);
  });

  it("is one workspace hook named hookify, of engine rules; disabled files and other .claude files are ignored", async () => {
    const { hooks } = await rulesWorkspace({
      ...hookify("off", "enabled: false\nevent: bash\npattern: .", "Off."),
      ".claude/settings.json": { hooks: {} },
      ".claude/notes.local.md": ruleFile("event: bash\npattern: ."),
    });
    const chain = hooks.list().find((c) => c.point === "tool_before")?.hooks ?? [];
    expect(chain.filter((h) => h.engine === "rules")).toEqual([
      expect.objectContaining({
        name: "hookify",
        origin: "workspace",
        engine: "rules",
        source: ".claude/hookify.*.local.md",
      }),
    ]);
    expect(hooks.problems).toEqual([]);
    expect((await hooks.dispatch("tool_before", toolBefore())).notices).toEqual([]);
  });

  it("takes only the plugin's event names: a point name there is a problem naming the field", async () => {
    const { hooks } = await rulesWorkspace(hookify("points", "event: tool_before\npattern: ."));
    expect(hooks.problems).toEqual([
      expect.objectContaining({
        name: "points",
        message: 'event: "tool_before" is not an event here; use one of: bash, file, prompt, stop, all',
      }),
    ]);
  });
});
