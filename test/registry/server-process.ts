import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach } from "vitest";
import { repoRoot } from "../helpers/cli.js";
import { processWaitMs } from "../helpers/timeouts.js";

/** `hookyard registry serve` as a real process (the bin, from dist/: run `npm run build` first). */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** The admin token, when this start printed one. */
  adminToken: string | undefined;
  stderr: () => string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<number | NodeJS.Signals | null>;
}

const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

export function startServerProcess(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ServerProcess> {
  return startNodeProcess([join(repoRoot, "bin", "hookyard.js"), ...args], options);
}

/**
 * A registry that a test's own script builds (an ES module run with `node -e`, importing from
 * dist/), for what `hookyard registry serve` has no option for, such as `buildRegistry`'s test
 * hooks. The script says where it listens (and the admin token) on stderr as serve does:
 * `hookyard registry listening on <url>`, `admin token …: <token>`.
 */
export function startScriptServer(
  script: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ServerProcess> {
  return startNodeProcess(["--input-type=module", "-e", script], options);
}

/** The module of dist/ that `file` (a path under the repo, e.g. "registry/app.js") is, as a URL for an import in a script. */
export function builtModule(file: string): string {
  return pathToFileURL(join(repoRoot, "dist", file)).href;
}

function startNodeProcess(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--no-node-snapshot", ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.push(child);
  let stderr = "";
  const exited = new Promise<number | NodeJS.Signals | null>((done) =>
    child.on("exit", (code, signal) => done(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`the registry did not start within ${options.timeoutMs ?? processWaitMs} ms: ${stderr}`),
      );
    }, options.timeoutMs ?? processWaitMs);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        adminToken: /admin token .*: (hyk_\S+)/.exec(stderr)?.[1],
        stderr: () => stderr,
        exited,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the registry exited (${code}) before listening: ${stderr}`));
    });
  });
}
