import type { CliContext } from "../command.js";
import { grantLine } from "./capability-lines.js";
import { askLine, isYes } from "./terminal-questions.js";

/** Asks on the terminal about each requested capability no --grant covers; "y" or "yes" grants it. */
export async function askGrants(
  context: CliContext,
  id: string,
  undecided: readonly string[],
): Promise<string[]> {
  const approved: string[] = [];
  for (const text of undecided) {
    if (isYes(await askLine(context, `grant ${id}: ${grantLine(text)}? [y/N] `, "grant")))
      approved.push(text);
  }
  return approved;
}
