/** One input per mapped event, shaped as that agent sends them (its documented fields). */
const common = {
  session_id: "sess-1",
  transcript_path: "/home/me/.claude/projects/p/sess-1.jsonl",
  cwd: "/home/me/project",
  permission_mode: "default",
};

export const claudeInputs = {
  PreToolUse: {
    ...common,
    hook_event_name: "PreToolUse",
    tool_name: "Edit",
    tool_input: { file_path: "/home/me/project/a.ts", old_string: "a", new_string: "b" },
    tool_use_id: "toolu_01",
  },
  PostToolUse: {
    ...common,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "cat .env", description: "show env" },
    tool_response: { stdout: "KEY=AKIAABCDEFGHIJKLMNOP", stderr: "", interrupted: false },
    tool_use_id: "toolu_02",
  },
  PostToolUseFailure: {
    ...common,
    hook_event_name: "PostToolUseFailure",
    tool_name: "Read",
    tool_input: { file_path: "/home/me/project/missing.txt" },
    tool_use_id: "toolu_03",
    error: "ENOENT: no such file or directory",
    is_interrupt: false,
  },
  UserPromptSubmit: { ...common, hook_event_name: "UserPromptSubmit", prompt: "Refactor the parser" },
  Stop: {
    ...common,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "All done.",
  },
  SubagentStop: { ...common, hook_event_name: "SubagentStop", stop_hook_active: false },
  SessionStart: { ...common, hook_event_name: "SessionStart", source: "startup", model: "claude-x" },
  SessionEnd: { ...common, hook_event_name: "SessionEnd", reason: "logout" },
  PreCompact: { ...common, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" },
  Notification: {
    ...common,
    hook_event_name: "Notification",
    message: "Claude needs your permission to use Bash",
    notification_type: "permission_prompt",
  },
} as const;

export type MappedEvent = keyof typeof claudeInputs;

/** A mutable copy of one input, with `changes` merged in. */
export function inputFor(event: MappedEvent, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...structuredClone(claudeInputs[event]), ...changes } as Record<string, unknown>;
}
