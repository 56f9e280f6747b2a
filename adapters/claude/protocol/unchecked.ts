import type { ClaudeAnswer } from "./output.js";
import { capText } from "./text.js";

/** Events at which the agent acts on the answer before anything happens. */
const blockable = new Set(["PreToolUse", "UserPromptSubmit"]);

/**
 * The answer to input hookyard could not check (not JSON, the wrong shape, too large or deep):
 * where the agent is about to act, a refusal, so a model cannot get a tool call or a prompt past
 * the guards by making it unreadable; elsewhere undefined (the caller reports a plain error).
 */
export function uncheckedRefusal(event: string | undefined, why: string): ClaudeAnswer | undefined {
  if (event === undefined || !blockable.has(event)) return undefined;
  const what = event === "PreToolUse" ? "tool call" : "prompt";
  const reason = capText(`hookyard could not check this ${what}, so it is refused: ${why}`);
  if (event === "UserPromptSubmit") {
    return { exitCode: 2, stdout: "", stderr: `${reason}\n`, body: { decision: "block", reason } };
  }
  const body = {
    hookSpecificOutput: {
      hookEventName: event,
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  };
  return { exitCode: 0, stdout: `${JSON.stringify(body)}\n`, stderr: `hookyard: ${reason}\n`, body };
}
