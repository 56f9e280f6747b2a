import { spawn } from "node:child_process";
import { z } from "zod";
import { RunnerError } from "../errors.js";
import type { Decision } from "../hook.js";
import { killProcessGroup } from "../process-group.js";
import { defaults, type Rule } from "../rule.js";
import {
  type CompileContext,
  hookPayload,
  parseDecisionText,
  ruleBaseSchema,
  ruleSettings,
} from "./settings.js";

/**
 * A hook as a process, the way coding agents run hooks today. A string runs through `sh -c`; an
 * array runs without a shell (argv[0] looked up on PATH). The ctx arrives on stdin as JSON.
 */
export const commandRuleSchema = ruleBaseSchema
  .extend({
    engine: z.literal("command"),
    command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
    env: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type CommandRuleConfig = z.infer<typeof commandRuleSchema>;

/** Beyond this, output is cut: a hook's decision is small, a runaway hook's output is not our memory's problem. */
const outputCap = 1024 * 1024;
/** A block reason goes to the model; coding agents cap hook output for it at the same length. */
const reasonCap = 10_000;
/** After the process exits, how long to wait for its pipes to close (a backgrounded child may hold them). */
const pipeGraceMs = 100;

export function commandRule(config: CommandRuleConfig, context: CompileContext): Rule {
  const argv = typeof config.command === "string" ? ["sh", "-c", config.command] : config.command;
  const settings = ruleSettings(config, context, defaults.externalTimeoutMs);
  const rule: Rule = {
    ...settings,
    engine: "command",
    trust: "trusted",
    source: typeof config.command === "string" ? config.command : config.command.join(" "),
    selfTimed: true,
    run: async (point, ctx) => {
      const env = {
        ...process.env,
        ...config.env,
        HOOKYARD_POINT: point,
        HOOKYARD_HOOK: rule.name,
        HOOKYARD_PROJECT_DIR: context.root,
      };
      const result = await runProcess(argv, hookPayload(rule, point, ctx), {
        cwd: context.root,
        env,
        timeoutMs: rule.timeoutMs,
      });
      return interpret(result, rule.name);
    },
  };
  return rule;
}

function interpret(result: ProcessResult, hook: string): Decision | undefined {
  if (result.code === 2) {
    const reason = result.stderr.trim().slice(0, reasonCap);
    return { block: reason || `blocked by command hook "${hook}" (exit 2, no reason given)` };
  }
  if (result.code !== 0) {
    const why = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
    const tail = result.stderr.trim().slice(-500);
    throw new RunnerError("RUN_ERR_COMMAND_FAILED", `command ${why}${tail ? `: ${tail}` : ""}`, { hook });
  }
  let parsed: { json: unknown } | undefined;
  try {
    parsed = parseDecisionText(result.stdout);
  } catch (error) {
    throw new RunnerError("RUN_ERR_COMMAND_FAILED", "stdout starts with { but is not valid JSON", {
      hook,
      cause: error,
    });
  }
  return parsed?.json as Decision | undefined;
}

interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runProcess(
  argv: readonly string[],
  input: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = argv as [string, ...string[]];
    // A process group of its own, so a timeout can kill the hook and everything it started.
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, stdio: "pipe" });
    const stdout = capture(child.stdout);
    const stderr = capture(child.stderr);
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      killProcessGroup(child);
      finish(() =>
        reject(
          new RunnerError(
            "RUN_ERR_HOOK_TIMEOUT",
            `command did not finish within ${options.timeoutMs} ms; killed`,
          ),
        ),
      );
    }, options.timeoutMs);

    child.on("error", (error: NodeJS.ErrnoException) => {
      const message =
        error.code === "ENOENT"
          ? `command not found: ${file}`
          : error.code === "EACCES"
            ? `${file} is not executable (chmod +x it, or run it through an interpreter: ["sh", "${file}"])`
            : `could not start ${file}: ${error.message}`;
      finish(() => reject(new RunnerError("RUN_ERR_COMMAND_FAILED", message, { cause: error })));
    });
    child.on("exit", (code, signal) => {
      const done = () =>
        finish(() => resolve({ code, signal, stdout: stdout.text(), stderr: stderr.text() }));
      let closed = 0;
      const onClose = () => {
        if (++closed === 2) done();
      };
      child.stdout.once("close", onClose);
      child.stderr.once("close", onClose);
      if (child.stdout.closed) onClose();
      if (child.stderr.closed) onClose();
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        done();
      }, pipeGraceMs).unref();
    });
    // A hook that never reads stdin makes our write fail with EPIPE; that is its business.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

function capture(stream: NodeJS.ReadableStream): { text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    if (size >= outputCap) return;
    chunks.push(chunk.subarray(0, outputCap - size));
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString("utf8") };
}
