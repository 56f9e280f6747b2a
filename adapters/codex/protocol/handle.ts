import { type ClaudeEventOptions, handleClaudeEvent } from "../../claude/protocol/handle.js";
import type { ClaudeDialect } from "../../claude/protocol/input.js";
import type { EventAnswer, EventHooks } from "../../profile.js";
import { codexEventPoint } from "./events.js";
import { codexOutcome } from "./output.js";

/** Codex's input is Claude Code's hook JSON with Codex's own events (and turn_id, model: ctx.agent.extra). */
export const codexDialect: ClaudeDialect = {
  name: "codex",
  pointOf: codexEventPoint,
  examples: "PreToolUse, Stop",
};

/**
 * One Codex event, start to end: Claude Code's handling (input to ctx, the chain, the count of
 * continues at Stop) with Codex's events and its form of the answer.
 */
export async function handleCodexEvent(
  hooks: EventHooks,
  eventName: string | undefined,
  input: unknown,
  options: Omit<ClaudeEventOptions, "dialect" | "outcome"> = {},
): Promise<EventAnswer> {
  const answer = await handleClaudeEvent(hooks, eventName, input, {
    ...options,
    dialect: codexDialect,
    outcome: codexOutcome,
  });
  return { stdout: answer.stdout, stderr: answer.stderr, exitCode: answer.exitCode };
}
