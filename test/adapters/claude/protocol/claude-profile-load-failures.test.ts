import { describe, expect, it } from "vitest";
import { handleClaudeEvent } from "../../../../adapters/claude/protocol/index.js";
import { loadHooks } from "../../../../index.js";
import { recordingLogger } from "../../../helpers/logger.js";
import { workspace } from "../../../helpers/temp.js";
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
  const hooks = await loadHooks({ cwd: root, logger, prestart: false });
  return { root, hooks, logger };
}

const brokenEntry = { name: "gate", engine: "command", events: ["turn_before"], command: "true", bogus: 1 };

describe("the claude profile: hooks that did not load", () => {
  it("fail closed by default, at the points of that hook only, before any hook runs", async () => {
    const { root, hooks, logger } = await hooksWith({ rules: [brokenEntry] });
    const prompt = await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(prompt.exitCode).toBe(2);
    expect(prompt.stderr).toMatch(
      /^Blocked by hook "gate": hook "gate" could not be loaded \(fix .*hookyard\.json\): rules\[0\]/,
    );
    expect(prompt.stderr).toContain(`fix ${root}/hookyard.json`);
    expect(logger.errors.join("\n")).toMatch(/hook "gate" .*could not be loaded and blocks at turn_before/);
    const tool = await handleClaudeEvent(hooks, "PreToolUse", inputFor("PreToolUse"));
    expect(tool.body).toEqual({ systemMessage: "seen: seen" });
    await hooks.close();
  });

  it('fail open where hookyard.json says onError "open": skipped, reported once, the others run', async () => {
    const { hooks, logger } = await hooksWith({ rules: [{ ...brokenEntry, onError: "open" }] });
    const answer = await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(answer).toMatchObject({ exitCode: 0, body: { systemMessage: "seen: seen" } });
    await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(logger.errors.filter((line) => line.includes('"gate"'))).toHaveLength(1);
    expect(logger.errors.join("\n")).toMatch(/hook "gate" .*was skipped/);
    await hooks.close();
  });

  it("a profile no agent registered is a broken hook that names the profiles there are, and blocks", async () => {
    const { hooks } = await hooksWith({
      rules: [
        { name: "gate", engine: "command", events: ["turn_before"], command: "true", profile: "claud" },
      ],
    });
    const prompt = await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"));
    expect(prompt.exitCode).toBe(2);
    expect(prompt.stderr).toContain('no coding agent\'s hook scripts are known as "claud" (known: claude)');
    await hooks.close();
  });

  it("fail closed at every blockable point when its points are unknown (a hook file that does not parse)", async () => {
    const { hooks } = await hooksWith(
      {},
      { ".hookyard/hooks/gate.mjs": "export default { name: 'gate', on: {" },
    );
    const tool = await handleClaudeEvent(hooks, "PreToolUse", inputFor("PreToolUse"));
    expect(tool.body.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(JSON.stringify(tool.body)).toContain("gate.mjs");
    expect((await handleClaudeEvent(hooks, "UserPromptSubmit", inputFor("UserPromptSubmit"))).exitCode).toBe(
      2,
    );
    const after = await handleClaudeEvent(hooks, "PostToolUse", inputFor("PostToolUse"));
    expect(after).toMatchObject({ exitCode: 0, stdout: "" });
    await hooks.close();
  });

  it("an invalid override does not switch the hook off: it blocks at the hook's own points", async () => {
    const { hooks } = await hooksWith({ hooks: { seen: { enabled: "no" } } });
    const tool = await handleClaudeEvent(hooks, "PreToolUse", inputFor("PreToolUse"));
    expect(tool.body.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
    expect(JSON.stringify(tool.body)).toContain("hooks.seen.enabled");
    await hooks.close();
  });
});
