import { createInterface } from "node:readline/promises";
import { ClientError } from "../../client/errors.js";
import type { CliContext } from "../command.js";
import { grantLine } from "./capability-lines.js";

/** Asks on the terminal about each requested capability no --grant covers; "y" or "yes" grants it. */
export async function askGrants(
  context: CliContext,
  id: string,
  undecided: readonly string[],
): Promise<string[]> {
  const approved: string[] = [];
  const rl = createInterface({ input: context.stdin, output: context.stderr });
  try {
    for (const text of undecided) {
      const answer = await rl.question(`grant ${id}: ${grantLine(text)}? [y/N] `).catch((error: Error) => {
        // Ctrl-C or Ctrl-D at the question: the install stops, and nothing was written yet.
        throw new ClientError("CLI_ERR_INTERRUPTED", `interrupted at the grant question: ${error.message}`);
      });
      if (/^y(es)?$/i.test(answer.trim())) approved.push(text);
    }
  } finally {
    rl.close();
  }
  return approved;
}
