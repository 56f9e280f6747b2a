import type { EventAnswer } from "../../profile.js";
import { opencodeBlockableEvents } from "./events.js";

/** hookyard holds what it writes for OpenCode to the same cap as for the other agents. */
const cap = 10_000;

/**
 * The answer to an event hookyard could not check (input not JSON, the wrong shape, no hook could
 * run): where OpenCode is about to act, `{"block": reason}` and exit code 2, which the plugin turns
 * into a thrown error (the tool does not run, the prompt is not sent); elsewhere undefined (the
 * caller reports a plain error). Light: the exec client loads it on every event.
 */
export function opencodeUncheckedRefusal(event: string | undefined, why: string): EventAnswer | undefined {
  if (event === undefined || !opencodeBlockableEvents.has(event)) return undefined;
  const what = event === "tool.execute.before" ? "tool call" : "prompt";
  let reason = `hookyard could not check this ${what}, so it is refused: ${why}`;
  if (reason.length > cap) reason = `${reason.slice(0, cap - 40)}\n[cut by hookyard]`;
  return { exitCode: 2, stdout: `${JSON.stringify({ block: reason })}\n`, stderr: `hookyard: ${reason}\n` };
}
