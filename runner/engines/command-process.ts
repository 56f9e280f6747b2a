import { spawn } from "node:child_process";
import { RunnerError } from "../../core/errors.js";
import { killProcessGroup } from "../process-group.js";

/** Beyond this, output is cut: a hook's decision is small, a runaway hook's output is not our memory's problem. */
const outputCap = 1024 * 1024;
/** After the process exits, how long to wait for its pipes to close (a backgrounded child may hold them). */
const pipeGraceMs = 100;

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command hook's process: `input` on stdin, stdout and stderr captured (capped). A timeout
 * kills the process group and rejects with RUN_ERR_HOOK_TIMEOUT; a process that cannot start
 * rejects with RUN_ERR_COMMAND_FAILED. Any exit, whatever its code, resolves.
 */
export function runProcess(
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

/** A string runs through `sh -c`; an array as it is (argv[0] looked up on PATH). */
export function commandArgv(command: string | readonly string[]): readonly string[] {
  return typeof command === "string" ? ["sh", "-c", command] : command;
}

/** The command as `hookyard list` shows it. */
export function commandSource(command: string | readonly string[]): string {
  return typeof command === "string" ? command : command.join(" ");
}

/** "exited with code 3: <end of stderr>" or "was killed by SIGKILL", for a failure message. */
export function exitText(result: ProcessResult): string {
  const why = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
  const tail = result.stderr.trim().slice(-500);
  return `command ${why}${tail ? `: ${tail}` : ""}`;
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

/** The environment every command hook runs with, whatever protocol it speaks. */
export function hookProcessEnv(
  configured: Record<string, string> | undefined,
  hook: string,
  point: string,
  root: string,
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...configured,
    HOOKYARD_POINT: point,
    HOOKYARD_HOOK: hook,
    HOOKYARD_PROJECT_DIR: root,
  };
}
