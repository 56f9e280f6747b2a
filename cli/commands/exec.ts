import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import { format } from "node:util";
import type { Logger } from "../../runner/logger.js";
import type { CliContext, Command } from "../command.js";

export default {
  name: "exec",
  summary:
    "Answer one hook event of a coding agent: its JSON on stdin, the workspace's hooks, its answer on stdout",
  args: [
    {
      name: "<event>",
      description: "the agent's event: PreToolUse, PostToolUse, Stop, … (others pass through)",
    },
  ],
  options: [
    {
      flags: "--profile <agent>",
      description: "the agent whose hook protocol to speak",
      required: true,
      choices: ["claude"],
    },
  ],
  help: [
    "Put it in the agent's settings as a command hook, one entry per event (hookyard install-into does it).",
    "The workspace is found from the input's cwd (else --cwd, else the current directory).",
    "Exit 0 with nothing, plain text or JSON on stdout; exit 2 with the reason on stderr for a blocked",
    "prompt; exit 1 for input that is not the agent's (which that agent treats as a non-blocking error).",
  ].join("\n"),
  async run(context, args) {
    const profile = await import("../../runner/profiles/claude/index.js");
    const event = args[0] as string;
    const text = await readInput(context.stdin, profile.maxInputBytes);
    if (profile.claudeEventPoint(event) === undefined) return 0;
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new profile.ClaudeInputError(`stdin is not valid JSON: ${why}`);
    }
    // Refused before any hook loads or runs.
    profile.claudeInputToCtx(input, event);
    const { loadHooks } = await import("../../runner/load-hooks.js");
    const logger = stderrLogger(context);
    let hooks: Awaited<ReturnType<typeof loadHooks>>;
    try {
      // No sandbox process unless a sandboxed hook runs at this event: one event per process.
      hooks = await loadHooks({ cwd: await workspaceDir(input, context.cwd), logger, prestart: false });
    } catch (error) {
      return noHookRan(context, error, profile.capText);
    }
    const { errorText } = await import("../../runner/errors.js");
    const restoreConsole = consoleTo(context.stderr);
    const unhandled = (reason: unknown) =>
      logger.error(`a promise nobody awaited was rejected (a hook missing an await?): ${errorText(reason)}`);
    process.on("unhandledRejection", unhandled);
    try {
      const answer = await profile.handleClaudeEvent(await profile.failClosedOnLoad(hooks), event, input);
      context.stdout.write(answer.stdout);
      context.stderr.write(answer.stderr);
      return answer.exitCode;
    } finally {
      // After the answer is written: background hooks (the audit log) finish before the process ends.
      await hooks.drain();
      await hooks.close();
      restoreConsole();
      process.off("unhandledRejection", unhandled);
    }
  },
} satisfies Command;

async function readInput(stdin: CliContext["stdin"], cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > cap) {
      const { ClaudeInputError } = await import("../../runner/profiles/claude/index.js");
      throw new ClaudeInputError(`stdin is larger than ${cap / 1024 / 1024} MiB, which no hook input is`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The agent's cwd when it names a directory that exists; else where hookyard was started. */
async function workspaceDir(input: unknown, fallback: string): Promise<string> {
  const cwd = (input as { cwd?: unknown }).cwd;
  if (typeof cwd !== "string" || !isAbsolute(cwd)) return fallback;
  const isDirectory = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return isDirectory ? cwd : fallback;
}

/**
 * The workspace itself did not load (hookyard.json is not JSON, .hookyard/hooks is a file): no
 * hook's onError can be known, so the agent goes on, and the user is told in its own message field.
 */
async function noHookRan(
  context: CliContext,
  error: unknown,
  cap: (text: string) => string,
): Promise<number> {
  const { renderError } = await import("../error-message.js");
  const line = renderError(error).line;
  context.stderr.write(`${line}\n`);
  const message = `hookyard: no hook ran: ${line.replace(/^hookyard: /, "")}`;
  context.stdout.write(`${JSON.stringify({ systemMessage: cap(message) })}\n`);
  return 0;
}

function stderrLogger(context: CliContext): Logger {
  return {
    info: (message) => context.stderr.write(`hookyard: ${message}\n`),
    warn: (message) => context.stderr.write(`hookyard: warning: ${message}\n`),
    error: (message) => context.stderr.write(`hookyard: error: ${message}\n`),
  };
}

/** stdout is the agent's: a hook's console.log must not land in the answer. */
function consoleTo(stream: CliContext["stderr"]): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  const write = (...parts: unknown[]) => void stream.write(`${format(...parts)}\n`);
  Object.assign(console, { log: write, info: write, debug: write });
  return () => Object.assign(console, saved);
}
