import { createInterface, type Interface } from "node:readline";
import { ClientError } from "../../client/errors.js";
import type { CliContext } from "../command.js";

/**
 * The terminal's answers, one line each, in the order typed: a person who types "y" for the next
 * question before it is shown (type-ahead, as in any shell) gets that answer used, not dropped.
 * One reader per stdin for the whole process, so no line falls between two questions or two
 * packages. The terminal stays in its own line mode (readline's `terminal: false`): the kernel
 * echoes and edits the line, and Ctrl-C is the signal the install transaction already undoes.
 */
class TerminalLines {
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;
  private ended = false;
  private readonly reader: Interface;

  constructor(input: NodeJS.ReadableStream) {
    this.reader = createInterface({ input, terminal: false });
    this.reader.on("line", (line) => {
      const waiting = this.waiting;
      this.waiting = undefined;
      if (waiting) waiting(line);
      else this.lines.push(line);
    });
    this.reader.on("close", () => {
      this.ended = true;
      this.waiting?.(undefined);
      this.waiting = undefined;
    });
  }

  /** The next line, or undefined at end of input (Ctrl-D) or Ctrl-C. */
  async next(): Promise<string | undefined> {
    const queued = this.lines.shift();
    if (queued !== undefined) return queued;
    if (this.ended) return undefined;
    const interrupted = () => {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.(undefined);
    };
    process.once("SIGINT", interrupted);
    this.reader.resume();
    try {
      return await new Promise((done) => {
        this.waiting = done;
      });
    } finally {
      process.off("SIGINT", interrupted);
      // Paused between questions, so a finished command's process can exit; typed lines wait.
      this.reader.pause();
    }
  }
}

const readers = new WeakMap<object, TerminalLines>();

/** Asks one question on stderr and returns the answer line; Ctrl-C or Ctrl-D stops the command. */
export async function askLine(context: CliContext, question: string, stage: string): Promise<string> {
  let reader = readers.get(context.stdin);
  if (!reader) {
    reader = new TerminalLines(context.stdin);
    readers.set(context.stdin, reader);
  }
  context.stderr.write(question);
  const answer = await reader.next();
  if (answer === undefined) {
    context.stderr.write("\n");
    throw new ClientError("CLI_ERR_INTERRUPTED", `interrupted at the ${stage} question`);
  }
  return answer;
}

export const isYes = (answer: string) => /^y(es)?$/i.test(answer.trim());
