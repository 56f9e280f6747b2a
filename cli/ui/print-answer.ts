import type { CliContext } from "../command.js";
import { exitCodes } from "../errors.js";

/**
 * The end of a registry command: with --json the data (the registry's answer, as checked by the
 * client), else the lines for people. Either way the command succeeded.
 */
export function printAnswer(
  context: CliContext,
  options: Record<string, unknown>,
  data: unknown,
  lines: readonly string[],
): number {
  context.stdout.write(options.json ? `${JSON.stringify(data, null, 2)}\n` : `${lines.join("\n")}\n`);
  return exitCodes.ok;
}
