import { Console } from "node:console";
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import type { AgentProfile, EventAnswer } from "../../../adapters/profile.js";
import { maxInputBytes } from "../../../adapters/profile.js";
import { profileNames } from "../../../adapters/profile-events.js";
import type { Hooks } from "../../../runner/load/load-hooks.js";
import type { Logger } from "../../../runner/logger.js";
import type { CliContext, Command } from "../../command.js";
import { loadWorkspaceHooks } from "../../load-hooks.js";

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
      choices: profileNames,
    },
  ],
  help: [
    "Put it in the agent's settings as a command hook, one entry per event (hookyard install-into does it).",
    "The workspace is found from the input's cwd (else --cwd, else the current directory).",
    "Exit 0 with nothing, plain text or JSON on stdout; exit 2 with the reason on stderr for a blocked",
    "prompt; exit 1 for input that is not the agent's (which that agent treats as a non-blocking error).",
  ].join("\n"),
  async run(context, args, options) {
    (await import("./schemas-without-jit.js")).schemasWithoutJit();
    const { loadProfile } = await import("../../../adapters/load-profile.js");
    // Commander checked it is one of the choices.
    const profile = (await loadProfile(String(options.profile))) as AgentProfile;
    const event = args[0] as string;
    if (profile.point(event) === undefined) {
      // Passed through unread; a near miss of a mapped event is a typo in the settings, and says so.
      const meant = profile.events.find((name) => name.toLowerCase() === event.toLowerCase());
      if (meant)
        context.stderr.write(
          `hookyard: warning: unknown event "${event}" passed through: did you mean ${meant}?\n`,
        );
      return 0;
    }
    const [{ errorAnswer, noHookRanAnswer, uncheckedAnswer }, { renderError }] = await Promise.all([
      import("../../../adapters/daemon/answer.js"),
      import("../../error-message.js"),
    ]);
    const write = (answer: EventAnswer) => {
      context.stdout.write(answer.stdout);
      context.stderr.write(answer.stderr);
      return answer.exitCode;
    };
    let input: unknown;
    try {
      // Refused before any hook loads or runs.
      input = profile.parseInput(event, await readInput(context.stdin));
    } catch (error) {
      const refusal = uncheckedAnswer(profile, event, error);
      if (refusal) return write(refusal);
      throw error;
    }
    const logger = stderrLogger(context);
    // From here on hook code runs (a hook file's top level, at load): its console output is not the answer.
    const restoreConsole = consoleTo(context.stderr);
    let hooks: Hooks;
    try {
      // No sandbox process unless a sandboxed hook runs at this event: one event per process.
      hooks = await loadWorkspaceHooks({
        cwd: await workspaceDir(input, context.cwd),
        logger,
        prestart: false,
      });
    } catch (error) {
      restoreConsole();
      return write(noHookRanAnswer(profile, event, error, renderError));
    }
    const { errorText } = await import("../../../core/errors.js");
    const unhandled = (reason: unknown) =>
      logger.error(`a promise nobody awaited was rejected (a hook missing an await?): ${errorText(reason)}`);
    process.on("unhandledRejection", unhandled);
    try {
      const answer = await profile.handle(hooks, event, input);
      return write(answer);
    } catch (error) {
      // The chain could not run: where the agent is about to act, that is a refusal, not a pass.
      const line = errorAnswer(error, renderError)
        .stderr.trim()
        .replace(/^hookyard: /, "");
      const refusal = profile.refusal(event, `its hooks could not run: ${line}`);
      if (refusal) return write(refusal);
      throw error;
    } finally {
      // After the answer is written: background hooks (the audit log) finish before the process ends.
      await hooks.drain();
      await hooks.close();
      restoreConsole();
      process.off("unhandledRejection", unhandled);
    }
  },
} satisfies Command;

async function readInput(stdin: CliContext["stdin"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > maxInputBytes) {
      const { AgentInputError } = await import("../../../adapters/agent-input-error.js");
      throw new AgentInputError(
        `stdin is larger than ${maxInputBytes / 1024 / 1024} MiB, which no hook input is`,
      );
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

function stderrLogger(context: CliContext): Logger {
  return {
    info: (message) => context.stderr.write(`hookyard: ${message}\n`),
    warn: (message) => context.stderr.write(`hookyard: warning: ${message}\n`),
    error: (message) => context.stderr.write(`hookyard: error: ${message}\n`),
  };
}

/** stdout is the agent's: nothing a hook prints through console (log, dir, table, trace…) may land in the answer. */
function consoleTo(stream: CliContext["stderr"]): () => void {
  const saved = globalThis.console;
  const sink = stream as unknown as NodeJS.WritableStream;
  globalThis.console = new Console({ stdout: sink, stderr: sink });
  return () => {
    globalThis.console = saved;
  };
}
