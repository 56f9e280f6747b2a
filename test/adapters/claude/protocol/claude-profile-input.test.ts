import { describe, expect, it } from "vitest";
import { AgentInputError } from "../../../../adapters/agent-input-error.js";
import {
  agentToolName,
  claudeEventPoint,
  claudeEvents,
  claudeInputFromCtx,
  claudeInputToCtx,
  claudeToolName,
} from "../../../../adapters/claude/protocol/index.js";
import { ctxSchema } from "../../../../core/events.js";
import { claudeInputs, inputFor, type MappedEvent } from "./claude-profile-inputs.js";

function mapped(event: MappedEvent, changes: Record<string, unknown> = {}) {
  const result = claudeInputToCtx(inputFor(event, changes));
  if ("passthrough" in result) throw new Error(`${event} passed through`);
  return result;
}

describe("the claude profile: input", () => {
  it("maps each of the agent's events to the point the issue names", () => {
    expect(Object.fromEntries(claudeEvents.map((event) => [event, claudeEventPoint(event)]))).toEqual({
      PreToolUse: "tool_before",
      PostToolUse: "tool_after",
      PostToolUseFailure: "tool_error",
      UserPromptSubmit: "turn_before",
      Stop: "turn_after",
      SubagentStop: "turn_after",
      SessionStart: "agent_before",
      SessionEnd: "agent_after",
      PreCompact: "compact_before",
      Notification: "notify",
    });
  });

  it.each(claudeEvents)("gives %s a ctx that its point's schema accepts", (event) => {
    const { point, ctx } = mapped(event);
    expect(point).toBe(claudeEventPoint(event));
    expect(ctxSchema(point).safeParse(ctx).success).toBe(true);
    expect(ctx.sessionId).toBe("sess-1");
    expect(ctx.agent).toMatchObject({
      name: "claude",
      event,
      transcriptPath: "/home/me/.claude/projects/p/sess-1.jsonl",
      cwd: "/home/me/project",
      permissionMode: "default",
    });
  });

  it("puts a tool call's fields where our tool points have them, under our tool names", () => {
    expect(mapped("PreToolUse").ctx).toMatchObject({
      tool: "write_file",
      args: { path: "/home/me/project/a.ts", old_string: "a", new_string: "b" },
      callId: "toolu_01",
      agent: { tool: "Edit" },
    });
    const after = mapped("PostToolUse").ctx;
    expect(after).toMatchObject({ tool: "bash", args: { command: "cat .env" }, agent: { tool: "Bash" } });
    // Bash's object result is read as its text, the lines the model reads (result-shapes.ts).
    expect(after.result).toBe(claudeInputs.PostToolUse.tool_response.stdout);
    expect(mapped("PostToolUseFailure").ctx).toMatchObject({
      tool: "read_file",
      args: { path: "/home/me/project/missing.txt" },
      error: "ENOENT: no such file or directory",
      agent: { isInterrupt: false },
    });
  });

  it("maps the file tools to ours, keeps every other name lower-cased, and finds the agent's name again", () => {
    const names = ["Bash", "Read", "Write", "Edit", "MultiEdit", "LS", "Glob", "Grep", "WebFetch"];
    expect(names.map(claudeToolName)).toEqual([
      "bash",
      "read_file",
      "write_file",
      "write_file",
      "write_file",
      "list_dir",
      "list_dir",
      "grep",
      "webfetch",
    ]);
    expect(claudeToolName("mcp__GitHub__create_issue")).toBe("mcp__github__create_issue");
    expect(agentToolName("write_file", "MultiEdit")).toBe("MultiEdit");
    expect(agentToolName("write_file")).toBe("Write");
    expect(agentToolName("webfetch")).toBe("WebFetch");
    expect(agentToolName("mcp__github__create_issue", "mcp__GitHub__create_issue")).toBe(
      "mcp__GitHub__create_issue",
    );
    // An original that does not map to the tool is not believed.
    expect(agentToolName("bash", "Edit")).toBe("Bash");
  });

  it("puts each event's own fields into the ctx or, where we have no field, into ctx.agent", () => {
    expect(mapped("UserPromptSubmit").ctx).toMatchObject({ prompt: "Refactor the parser", history: [] });
    expect(mapped("Stop").ctx).toMatchObject({
      answer: "All done.",
      messages: [{ role: "assistant", content: "All done." }],
      agent: { stopHookActive: false },
    });
    expect(mapped("SubagentStop").ctx).toMatchObject({
      answer: "",
      messages: [],
      agent: { event: "SubagentStop" },
    });
    expect(mapped("SessionStart").ctx).toMatchObject({
      cwd: "/home/me/project",
      depth: 0,
      config: {},
      agent: { source: "startup", extra: { model: "claude-x" } },
    });
    expect(mapped("SessionEnd").ctx).toMatchObject({ reason: "logout" });
    expect(mapped("PreCompact").ctx).toMatchObject({
      reason: "auto",
      messages: [],
      agent: { trigger: "auto", customInstructions: "" },
    });
    expect(mapped("Notification").ctx).toMatchObject({
      message: "Claude needs your permission to use Bash",
      level: "warning",
      agent: { notificationType: "permission_prompt" },
    });
    expect(mapped("Notification", { notification_type: "idle_prompt" }).ctx.level).toBe("info");
  });

  it("keeps fields it has no name for in ctx.agent.extra, as sent", () => {
    const { ctx } = mapped("PreToolUse", { agent_id: "sub-7", future_field: { a: [1] } });
    expect(ctx.agent).toMatchObject({ extra: { agent_id: "sub-7", future_field: { a: [1] } } });
  });

  it("lets the event named on the command line win over hook_event_name", () => {
    const result = claudeInputToCtx(inputFor("UserPromptSubmit"), "Stop");
    expect(result).toMatchObject({ point: "turn_after", event: "Stop" });
  });

  it("passes through events it does not map, whatever their input", () => {
    expect(claudeInputToCtx(inputFor("PreToolUse"), "PermissionRequest")).toEqual({ passthrough: true });
    expect(claudeInputToCtx({ hook_event_name: "SubagentStart" })).toEqual({ passthrough: true });
  });

  it.each([
    ["an array", [1, 2], "not a JSON object"],
    ["null", null, "not a JSON object"],
    ["no event anywhere", { session_id: "s" }, "no event"],
    ["no session_id", { hook_event_name: "Stop" }, "session_id"],
    ["an empty session_id", inputFor("Stop", { session_id: "" }), "session_id"],
    ["no tool_name at PreToolUse", inputFor("PreToolUse", { tool_name: undefined }), "tool_name"],
    ["tool_input that is an array", inputFor("PreToolUse", { tool_input: ["rm"] }), "tool_input"],
    ["a prompt that is a number", inputFor("UserPromptSubmit", { prompt: 42 }), "prompt"],
    ["stop_hook_active that is a string", inputFor("Stop", { stop_hook_active: "yes" }), "stop_hook_active"],
  ])("refuses %s with AgentInputError naming what is wrong", (_name, input, words) => {
    expect(() => claudeInputToCtx(input)).toThrow(AgentInputError);
    expect(() => claudeInputToCtx(input)).toThrow(words);
  });

  it("refuses input nested deeper than a ctx may be, before anything copies it", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 5_000; i++) deep = { deep };
    const input = inputFor("PreToolUse", { tool_input: { deep } });
    expect(() => claudeInputToCtx(input)).toThrow(/nested deeper than 100 levels/);
  });

  it.each(claudeEvents)("gives %s back as the agent sent it (claudeInputFromCtx)", (event) => {
    const { point, ctx } = mapped(event);
    const sent: Record<string, unknown> = inputFor(event);
    const back = claudeInputFromCtx(point, ctx, { cwd: "/elsewhere" });
    // Fields the agent left out come back with that agent's defaults.
    const defaults: Record<string, unknown> = {
      SubagentStop: { last_assistant_message: "" },
    };
    expect(back).toEqual({ ...sent, ...(defaults[event] as object) });
  });

  it("turns a ctx from hookyard's own loop into that agent's input with its defaults", () => {
    const ctx = { sessionId: "s1", tool: "write_file", args: { path: "a.txt", content: "hi" }, callId: "c1" };
    expect(claudeInputFromCtx("tool_before", ctx, { cwd: "/p" })).toEqual({
      session_id: "s1",
      transcript_path: "",
      cwd: "/p",
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "a.txt", content: "hi" },
      tool_use_id: "c1",
    });
    expect(claudeInputFromCtx("llm_before", { sessionId: "s1" }, { cwd: "/p" })).toBeUndefined();
  });
});
