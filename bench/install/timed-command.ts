import { spawn } from "node:child_process";
import { BenchError } from "../errors.js";

/**
 * One timed run of a command as a user would type it: wall time from spawn to exit, node's start
 * included. A run that does not exit 0 fails the bench (a fast failure is not a result).
 */

export interface TimedCommand {
  command: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const commandTimeoutMs = 60_000;
const keptOutputChars = 4_000;

/** Milliseconds from spawn to exit. Output is kept (the last few KB) only to explain a failure. */
export function timeCommand(run: TimedCommand, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(run.command, run.args, {
      cwd: run.cwd,
      env: run.env,
      stdio: ["ignore", "pipe", "pipe"],
      signal,
      timeout: commandTimeoutMs,
    });
    let exitedAt = Number.NaN;
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-keptOutputChars);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("exit", () => {
      exitedAt = performance.now();
    });
    child.on("error", (error) => {
      reject(
        new BenchError("INSTALL_BENCH_ERR_COMMAND", `could not run ${line(run)}: ${error.message}`, {
          cause: error,
        }),
      );
    });
    // "close" comes after "exit" once the output pipes are drained: the whole output is here.
    child.on("close", (code, killedBy) => {
      if (code === 0) return resolve(exitedAt - started);
      const how = killedBy ? `was stopped by ${killedBy}` : `exited with ${code}`;
      reject(
        new BenchError(
          "INSTALL_BENCH_ERR_COMMAND",
          `${line(run)} (in ${run.cwd}) ${how}; its output ends with:\n${output.trim()}`,
        ),
      );
    });
  });
}

function line(run: TimedCommand): string {
  return [run.command, ...run.args].join(" ");
}
