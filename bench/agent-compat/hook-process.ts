import { spawn } from "node:child_process";
import { BenchError } from "../errors.js";
import type { CommandAnswer } from "./answer.js";

/**
 * One event sent to a hook process as that agent sends it: spawned, the input written to stdin and
 * closed, timed from spawn to exit. bench/install's timeCommand cannot be used here: its stdin is
 * closed, a non-zero exit (a deny) is a failure for it, and it keeps no stdout to check.
 */

export interface HookProcess {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface TimedAnswer extends CommandAnswer {
  /** Milliseconds from spawn to exit. */
  ms: number;
}

const processTimeoutMs = 30_000;
/** A hook answer is a line or two; more is only kept to explain a failure. */
const keptOutputChars = 16_000;

export function runHookProcess(run: HookProcess, input: string, signal: AbortSignal): Promise<TimedAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ["pipe", "pipe", "pipe"],
      signal,
      timeout: processTimeoutMs,
    });
    let exitedAt = Number.NaN;
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(0, keptOutputChars);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-keptOutputChars);
    });
    // A hook may exit before reading its stdin (sh's `exit 0` on another tool): not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
    child.on("exit", () => {
      exitedAt = performance.now();
    });
    child.on("error", (error) => {
      reject(
        new BenchError(
          "AGENT_BENCH_ERR_COMMAND",
          `could not run ${[run.command, ...run.args].join(" ")}: ${error.message}`,
          { cause: error },
        ),
      );
    });
    // "close" comes after "exit" once the pipes are drained: the whole answer is here.
    child.on("close", (exitCode, killedBy) => {
      resolve({ ms: exitedAt - started, exitCode, signal: killedBy, stdout, stderr });
    });
  });
}
