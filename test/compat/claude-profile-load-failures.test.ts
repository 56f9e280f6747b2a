import { describe, expect, it } from "vitest";
import { loadHooks } from "../../runner/load-hooks.js";
import { failClosedOnLoad, handleClaudeEvent } from "../../runner/profiles/claude/index.js";
import { recordingLogger } from "../helpers/logger.js";
import { workspace } from "../helpers/temp.js";
import { inputFor } from "./claude-profile-inputs.js";

/** A workspace whose hookyard.json holds `rules`, and a trusted hook that notes every prompt it sees. */
async function hooksWith(config: Record<string, unknown>, files: Record<string, string> = {}) {
  const root = await workspace({
    ...files,
    "hookyard.json": config,
    ".hookyard/hooks/seen.mjs":
      'export default { name: "seen", on: { turn_before: () => ({ notice: "seen" }), tool_before: () => ({ notice: "seen" }) } };\n',
  });
  const logger = recordingLogger();
  const hooks = await failClosedOnLoad(await loadHooks({ cwd: root, logger, prestart: false }));
  return { root, hooks, logger };
}

const brokenRule = { name: "gate", engine: "command", events: ["turn_before"], command: "true", bogus: 1 };

describe("the claude profile: hooks that did not load", () => {
  it("fail open by default: skipped, reported, the others run", async () => {
    const { hooks, logger } = await hooksWith({ rules: [brokenRule] });
    const answer = await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(answer).toMatchObject({ exitCode: 0, body: { systemMessage: "seen: seen" } });
    expect(logger.errors.join("\n")).toMatch(/hook "gate" .*was skipped/);
    await hooks.close();
  });

  it("fail closed where hookyard.json asks, at the points of its rule only, before any hook runs", async () => {
    const { hooks } = await hooksWith({ rules: [{ ...brokenRule, onError: "block" }] });
    const prompt = await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(prompt.exitCode).toBe(2);
    expect(prompt.stderr).toMatch(
      /^Blocked by hook "gate": hook "gate" could not be loaded and blocks on error: /,
    );
    expect(prompt.body).not.toHaveProperty("systemMessage");
    const tool = await handleClaudeEvent(hooks, "PreToolUse", inputFor("PreToolUse"));
    expect(tool.body).toEqual({ systemMessage: "seen: seen" });
    await hooks.close();
  });

  it("fail closed at every blockable point when hooks.<name> says so and its points are unknown", async () => {
    // A hook file that does not parse: its points were in the file.
    const { hooks } = await hooksWith(
      { hooks: { gate: { onError: "block" } } },
      { ".hookyard/hooks/gate.mjs": "export default { name: 'gate', on: {" },
    );
    const tool = await handleClaudeEvent(hooks, "PreToolUse", inputFor("PreToolUse"));
    expect(tool.body.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect((await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"))).exitCode).toBe(
      2,
    );
    const after = await handleClaudeEvent(hooks, "PostToolUse", inputFor("PostToolUse"));
    expect(after).toMatchObject({ exitCode: 0, stdout: "" });
    await hooks.close();
  });
});
