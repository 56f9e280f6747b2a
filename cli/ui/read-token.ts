import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import type { CliContext } from "../command.js";
import { CliError, exitCodes } from "../errors.js";

/** Far longer than any token: a longer first line is something else piped in by mistake. */
const maxLineLength = 4096;

/**
 * A token from the user, trimmed: typed at a prompt that does not echo it when stdin is a
 * terminal, else the first line of stdin (`hookyard login < token.txt`). "" when none was given.
 */
export async function readToken(context: CliContext, prompt: string): Promise<string> {
  const line = context.stdin.isTTY ? await promptHidden(context, prompt) : await firstLine(context.stdin);
  return line.trim();
}

async function firstLine(stdin: CliContext["stdin"]): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += chunk.toString();
    const end = text.indexOf("\n");
    if (end >= 0) return text.slice(0, end);
    if (text.length > maxLineLength) break;
  }
  if (text.length > maxLineLength) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `the first line of stdin is over ${maxLineLength} characters, which no token is: pipe in the token alone`,
      exitCodes.usage,
    );
  }
  return text;
}

function promptHidden(context: CliContext, prompt: string): Promise<string> {
  context.stderr.write(prompt);
  // readline echoes what is typed to its output: a sink that drops it keeps the token off the screen.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const reader = createInterface({ input: context.stdin, output: silent, terminal: true });
  return new Promise<string>((resolve, reject) => {
    reader.once("line", resolve);
    reader.once("SIGINT", () =>
      reject(new CliError("CLI_ERR_INTERRUPTED", "interrupted: nothing was saved", 130)),
    );
    reader.once("close", () => resolve(""));
  }).finally(() => {
    reader.close();
    context.stderr.write("\n");
  });
}
