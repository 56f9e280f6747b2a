import type { EventAnswer } from "../../profile.js";
import { geminiBlockableEvents } from "./events.js";

/** That agent's limit is not documented; hookyard holds what it writes to the same cap as Claude Code's. */
const cap = 10_000;

/**
 * The answer to an event hookyard could not check (input not JSON, the wrong shape, no hook could
 * run): where the agent is about to act, a refusal in its protocol, `decision: "deny"` with the
 * reason, and exit code 2 (a blocking error: the agent reads stderr as the reason if it cannot read
 * stdout), so a tool call or a prompt cannot get past the guards by being unreadable; elsewhere
 * undefined (the caller reports a plain error). Light: the exec client loads it on every event.
 */
export function geminiUncheckedRefusal(event: string | undefined, why: string): EventAnswer | undefined {
  if (event === undefined || !geminiBlockableEvents.has(event)) return undefined;
  const what = event === "BeforeTool" ? "tool call" : "prompt";
  let reason = `hookyard could not check this ${what}, so it is refused: ${why}`;
  if (reason.length > cap) reason = `${reason.slice(0, cap - 40)}\n[cut by hookyard]`;
  return {
    exitCode: 2,
    stdout: `${JSON.stringify({ decision: "deny", reason })}\n`,
    stderr: `hookyard: ${reason}\n`,
  };
}
