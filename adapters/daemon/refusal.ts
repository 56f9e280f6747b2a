import { uncheckedRefusal } from "../claude/protocol/unchecked.js";
import type { EventAnswer } from "./protocol.js";

/**
 * The answer when no chain could run at an event where the agent is about to act (PreToolUse,
 * UserPromptSubmit): a refusal in that agent's protocol, never a pass. Undefined elsewhere (the
 * caller reports the failure, and the agent goes on). Light: the exec client loads it.
 */
export function refusalAnswer(event: string, why: string): EventAnswer | undefined {
  const refusal = uncheckedRefusal(event, why);
  return refusal && { stdout: refusal.stdout, stderr: refusal.stderr, exitCode: refusal.exitCode };
}
