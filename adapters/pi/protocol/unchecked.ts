import type { EventAnswer } from "../../profile.js";
import { piBlockableEvents } from "./events.js";

/** Pi sets no limit; hookyard holds what it writes to the same cap as for the other agents. */
const cap = 10_000;

/**
 * The answer to an event hookyard could not check (input not JSON, the wrong shape, no hook could
 * run): at a tool call a block, at a prompt `handled` (no model call), each with the reason, and
 * exit code 2 (the extension refuses on any exit but 0 or 2 too, so a hookyard that cannot answer
 * at all is refused by it); elsewhere undefined. Light: the exec client loads it on every event.
 */
export function piUncheckedRefusal(event: string | undefined, why: string): EventAnswer | undefined {
  if (event === undefined || !piBlockableEvents.has(event)) return undefined;
  const what = event === "tool_call" ? "tool call" : "prompt";
  let reason = `hookyard could not check this ${what}, so it is refused: ${why}`;
  if (reason.length > cap) reason = `${reason.slice(0, cap - 40)}\n[cut by hookyard]`;
  const answer = event === "tool_call" ? { block: true, reason } : { action: "handled", reason };
  return { exitCode: 2, stdout: `${JSON.stringify(answer)}\n`, stderr: `hookyard: ${reason}\n` };
}
