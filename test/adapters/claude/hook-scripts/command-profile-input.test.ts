import { describe, expect, it } from "vitest";
import { claudeHookInput } from "../../../../adapters/claude/hook-scripts/input.js";
import { claudeInputToCtx } from "../../../../adapters/claude/protocol/input.js";
import { agentAfter, toolAfter, toolBefore, turnAfter, turnBefore } from "../../../helpers/ctx.js";

const root = "/home/me/project";
const common = {
  session_id: "abc123",
  transcript_path: "/home/me/.claude/projects/p/abc123.jsonl",
  cwd: "/home/me/project/src",
  permission_mode: "acceptEdits",
};

/** Inputs as that agent sends them, one per mapped event. */
const sent: Array<Record<string, unknown>> = [
  {
    ...common,
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "/home/me/project/a.ts", old_string: "a", new_string: "b" },
    tool_use_id: "toolu_01",
  },
  {
    ...common,
    hook_event_name: "PostToolUse",
    tool_name: "Write",
    tool_input: { file_path: "/home/me/project/a.ts", content: "x" },
    tool_response: { filePath: "/home/me/project/a.ts", success: true },
    tool_use_id: "toolu_02",
  },
  {
    ...common,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Bash",
    tool_input: { command: "npm test" },
    tool_use_id: "toolu_03",
    error: "exit code 1",
    is_interrupt: false,
  },
  { ...common, hook_event_name: "UserPromptSubmit", prompt: "fix the bug" },
  { ...common, hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "done" },
  { ...common, hook_event_name: "SubagentStop", stop_hook_active: false, last_assistant_message: "found it" },
  { ...common, hook_event_name: "SessionStart", source: "resume", model: "claude-sonnet" },
  { ...common, hook_event_name: "SessionEnd", reason: "logout" },
  { ...common, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep the plan" },
  {
    ...common,
    hook_event_name: "Notification",
    message: "Claude needs your permission to use Bash",
    notification_type: "permission_prompt",
  },
];

describe("the input a script gets", () => {
  for (const input of sent) {
    it(`is what that agent sent, for ${input.hook_event_name} through exec or serve`, () => {
      const mapped = claudeInputToCtx(input);
      if ("passthrough" in mapped) throw new Error("mapped events do not pass through");
      expect(claudeHookInput(mapped.point, mapped.ctx, root)).toEqual(input);
    });
  }

  it("carries an earlier hook's rewrite, not what that agent sent", () => {
    const mapped = claudeInputToCtx(sent[0]);
    if ("passthrough" in mapped) throw new Error("mapped events do not pass through");
    mapped.ctx.args = { path: "/home/me/project/b.ts", old_string: "a", new_string: "c" };
    expect(claudeHookInput("tool_before", mapped.ctx, root).tool_input).toEqual({
      file_path: "/home/me/project/b.ts",
      old_string: "a",
      new_string: "c",
    });
  });

  it("is built from our own agent loop's ctx, with that agent's names and absolute paths", () => {
    expect(
      claudeHookInput("tool_before", toolBefore({ tool: "read_file", args: { path: "src/a.ts" } }), root),
    ).toEqual({
      session_id: "s1",
      transcript_path: "",
      cwd: root,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: "/home/me/project/src/a.ts" },
      tool_use_id: "c1",
    });
    expect(claudeHookInput("tool_after", toolAfter(), root)).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls -la", env: { PATH: "/usr/bin" }, flags: ["-l", "-a"] },
      tool_response: "total 0",
    });
    expect(claudeHookInput("turn_before", turnBefore("hi"), root)).toMatchObject({ prompt: "hi" });
    expect(claudeHookInput("turn_after", turnAfter(), root)).toMatchObject({
      hook_event_name: "Stop",
      stop_hook_active: false,
      last_assistant_message: "done",
    });
    expect(claudeHookInput("agent_after", agentAfter(), root)).toMatchObject({
      hook_event_name: "SessionEnd",
      reason: "finished",
    });
  });
});
