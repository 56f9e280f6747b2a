import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach } from "vitest";
import { repoRoot } from "./cli.js";

/** A `hookyard` command in a child process, stopped before its install transaction writes hookyard.lock. */
export interface PausedCli {
  child: ChildProcess;
  /** Resolves once the command's store folders are complete and it waits before writing the lock. */
  reached: Promise<void>;
  /** Lets the command go on to write hookyard.lock. */
  release(): void;
  /** The exit code (null after a signal), and what the command wrote. */
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/**
 * Runs `hookyard <args>` as the bin would (the CLI's `main` from dist/, this process's streams,
 * its exit code), in a child process of the test's own making: `main` is given an install
 * transaction whose `beforeCommit` seam tells the test (over IPC) that it is there and waits for
 * `release()`, or for the transaction's signal (Ctrl-C). The product reads no environment
 * variable for this; only this script passes the seam.
 */
export function spawnPausedCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): PausedCli {
  const main = pathToFileURL(join(repoRoot, "dist", "cli", "main.js")).href;
  const script = `
    import { main } from ${JSON.stringify(main)};
    const beforeCommit = ({ signal }) =>
      new Promise((resolve, reject) => {
        process.once("message", () => resolve());
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        process.send("reached");
      });
    process.exitCode = await main(process.argv.slice(1), {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      env: process.env,
      cwd: process.cwd(),
      installTransaction: { beforeCommit },
    });
    process.disconnect();
  `;
  const child = spawn(
    process.execPath,
    ["--no-node-snapshot", "--input-type=module", "-e", script, ...args],
    {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  running.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on("close", (code) => done({ code, stdout, stderr })),
  );
  const reached = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    void exited.then(({ code }) =>
      reject(new Error(`the command exited (${code}) before it reached its pause: ${stderr}`)),
    );
  });
  // A test that does not wait for the pause still hears of an early exit through `exited`.
  reached.catch(() => {});
  return { child, reached, release: () => child.send("release"), exited };
}
