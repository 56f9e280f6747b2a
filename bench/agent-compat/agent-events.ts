import { BenchError } from "../errors.js";
import type { EventSource, Expected } from "./event.js";
import { guardReason } from "./guards.js";
import type { TimedAnswer } from "./hook-process.js";

/**
 * The same shell call as each of the other agents hands it to `hookyard exec --profile <agent>
 * <event>` (the shapes their profiles read, as seen from the real binaries and hookyard's own Pi
 * extension and OpenCode plugin). Claude Code's is event.ts.
 */

export interface AgentEvent {
  /** The row's name. */
  agent: string;
  profile: string;
  event: string;
  events(cwd: string): EventSource;
}

const commandFor: Record<Expected, string> = { deny: "rm -rf /", allow: "ls" };
const sessionId = "5f0c8a8e-2b7d-4c1e-9a34-0d6f1b2c3e4f";

export const agentEvents: readonly AgentEvent[] = [
  {
    agent: "Gemini CLI",
    profile: "gemini",
    event: "BeforeTool",
    events: (cwd) => ({
      json: (expected) =>
        JSON.stringify({
          session_id: sessionId,
          transcript_path: `${cwd}/.gemini/session.jsonl`,
          cwd,
          hook_event_name: "BeforeTool",
          timestamp: "2026-12-02T14:55:26.113Z",
          tool_name: "run_shell_command",
          tool_input: { command: commandFor[expected] },
        }),
    }),
  },
  {
    agent: "Codex",
    profile: "codex",
    event: "PreToolUse",
    events: (cwd) => ({
      json: (expected, call) =>
        JSON.stringify({
          session_id: sessionId,
          transcript_path: `${cwd}/.codex/rollout.jsonl`,
          cwd,
          hook_event_name: "PreToolUse",
          model: "gpt-5",
          permission_mode: "bypassPermissions",
          turn_id: "01a237aa-6857-7f32-a2b8-e08a074a1a80",
          tool_name: "Bash",
          tool_input: { command: commandFor[expected] },
          tool_use_id: `call_${call}`,
        }),
    }),
  },
  {
    agent: "Pi",
    profile: "pi",
    event: "tool_call",
    events: (cwd) => ({
      json: (expected, call) =>
        JSON.stringify({
          session_id: sessionId,
          cwd,
          toolName: "bash",
          toolCallId: `call_${call}`,
          input: { command: commandFor[expected] },
        }),
    }),
  },
  {
    agent: "OpenCode",
    profile: "opencode",
    event: "tool.execute.before",
    events: (cwd) => ({
      json: (expected, call) =>
        JSON.stringify({
          hook_event_name: "tool.execute.before",
          cwd,
          session_id: "ses_bench",
          tool: "bash",
          call_id: `call_${call}`,
          args: { command: commandFor[expected] },
        }),
    }),
  },
];

/**
 * Each agent reads its own answer (their suites in test/agents/ prove the shapes): here a deny is
 * an answer that carries the guard's reason, an allow one that exits 0 without it.
 */
export function checkAgentAnswer(label: string, expected: Expected, answer: TimedAnswer): void {
  const said = `${answer.stdout}${answer.stderr}`;
  const denied = said.includes(guardReason) && (answer.exitCode === 0 || answer.exitCode === 2);
  const allowed = answer.exitCode === 0 && !said.includes(guardReason) && answer.stderr.trim() === "";
  if (expected === "deny" ? denied : allowed) return;
  throw new BenchError(
    "AGENT_BENCH_ERR_WRONG_ANSWER",
    `${label} should ${expected === "deny" ? `deny with "${guardReason}"` : "allow"}, but answered exit ${answer.exitCode}, stdout ${JSON.stringify(answer.stdout.slice(0, 2_000))}, stderr ${JSON.stringify(answer.stderr.slice(-2_000))}`,
  );
}
