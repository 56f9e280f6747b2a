import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../../../runner/agent/loop.js";
import { ScriptedModel } from "../../../runner/agent/models/scripted.js";
import { ruleFile, rulesWorkspace } from "./helpers.js";

type Step = { content?: string; toolCalls?: Array<{ name: string; args: Record<string, unknown> }> };
const scripted = (responses: Step[]) => new ScriptedModel(ScriptedModel.parse({ responses }));

async function run(files: Record<string, string>, prompt: string, responses: Step[]) {
  const { root, hooks } = await rulesWorkspace(files);
  const model = scripted(responses);
  const result = await runAgent({ hooks, model, prompt, cwd: root, maxSteps: 5 });
  return { root, model, result };
}

describe("rules in the real agent loop: the message reaches the model", () => {
  it("a blocked tool call does not run, and its tool result carries the rule's message", async () => {
    const { root, model } = await run(
      {
        ".hookyard/rules/no-rm.md": ruleFile(
          "event: bash\naction: block\npattern: rm\\s+-rf",
          "Move it to .trash instead.",
        ),
        "build/keep.txt": "keep",
      },
      "clean up",
      [{ toolCalls: [{ name: "bash", args: { command: "rm -rf build" } }] }, { content: "ok" }],
    );
    expect(existsSync(join(root, "build", "keep.txt"))).toBe(true);
    const toolResults = (model.requests[1]?.messages ?? []).filter((m) => m.role === "tool");
    expect(toolResults.map((m) => m.content)).toEqual([
      'Blocked by hook "rules": [no-rm] Move it to .trash instead.',
    ]);
  });

  it("a warning lets the call run and is in the model's next request", async () => {
    const { root, model } = await run(
      {
        ".hookyard/rules/env.md": ruleFile(
          "event: file\nmatcher: write_file\npattern: SECRET",
          "Secrets belong in the vault.",
        ),
      },
      "configure",
      [
        { toolCalls: [{ name: "write_file", args: { path: ".env", content: "SECRET=1" } }] },
        { content: "ok" },
      ],
    );
    expect(existsSync(join(root, ".env"))).toBe(true);
    expect(model.requests[0]?.systemPrompt).not.toContain("Secrets belong in the vault.");
    expect(model.requests[1]?.systemPrompt).toContain(
      '<hookyard-inject hook="rules">\n[env] Secrets belong in the vault.\n</hookyard-inject>',
    );
  });

  it("a blocked prompt reaches no model", async () => {
    const { model, result } = await run(
      {
        ".hookyard/rules/freeze.md": ruleFile(
          "event: prompt\naction: block\npattern: deploy",
          "Deploys are frozen.",
        ),
      },
      "deploy to production",
      [{ content: "deploying" }],
    );
    expect(result.reason).toBe("prompt_blocked");
    expect(model.requests).toEqual([]);
  });

  it("a stop rule that blocks makes the agent take another turn with the message as its prompt", async () => {
    const { model, result } = await run(
      {
        ".hookyard/rules/tests.md": ruleFile(
          "event: stop\naction: block\nconditions:\n  - field: answer\n    operator: not_contains\n    pattern: tests pass",
          "Run the tests before you stop.",
        ),
      },
      "fix the bug",
      [{ content: "fixed" }, { content: "fixed, and the tests pass" }],
    );
    expect(result.answer).toBe("fixed, and the tests pass");
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: "user",
      content: "[tests] Run the tests before you stop.",
    });
  });
});
