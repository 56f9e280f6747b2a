import { join } from "node:path";

/**
 * The event every contender answers: a PreToolUse for the Bash tool, with the fields that agent
 * sends (its common fields, the tool's input with the description it writes, a fresh tool_use_id
 * per call). Half the calls carry the command the guard must deny, half one it must let through.
 */

export type Expected = "deny" | "allow";

const commandFor: Record<Expected, string> = {
  deny: "rm -rf /",
  allow: "ls",
};

export const eventName = "PreToolUse";

const sessionId = "5f0c8a8e-2b7d-4c1e-9a34-0d6f1b2c3e4f";

export interface EventSource {
  /** The i-th call's input as JSON text. */
  json(expected: Expected, call: number): string;
}

/** Inputs for an agent working in `cwd`; `home` is where it keeps its transcripts. */
export function preToolUseEvents(cwd: string, home: string): EventSource {
  const transcriptPath = join(home, ".claude", "projects", "-bench-workspace", `${sessionId}.jsonl`);
  return {
    json: (expected, call) =>
      JSON.stringify({
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd,
        hook_event_name: eventName,
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: {
          command: commandFor[expected],
          description: expected === "deny" ? "Remove everything" : "List files in the current directory",
        },
        tool_use_id: `toolu_01${call.toString(36).padStart(22, "0")}`,
      }),
  };
}
