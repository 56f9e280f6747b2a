import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { type ConfigRule, compileRule } from "../../runner/compile-rule.js";
import { Dispatcher } from "../../runner/dispatch.js";
import type { CtxOf } from "../../runner/events.js";
import type { Logger } from "../../runner/logger.js";
import { StateStore } from "../../runner/state.js";
import { trustedApi } from "../../runner/trusted-api.js";

/** A logger that keeps what it was told, so a test can check what the user would read on stderr. */
export interface RecordingLogger extends Logger {
  readonly errors: string[];
  readonly warnings: string[];
  readonly infos: string[];
}

export function recordingLogger(): RecordingLogger {
  const errors: string[] = [];
  const warnings: string[] = [];
  const infos: string[] = [];
  return {
    errors,
    warnings,
    infos,
    error: (message) => errors.push(message),
    warn: (message) => warnings.push(message),
    info: (message) => infos.push(message),
  };
}

/** Call once at the top level of a test file: returns a maker of temp dirs that are removed after each test. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookyard-test-"));
    made.push(dir);
    return dir;
  };
}

/** Writes `{ relativePath: contents }` under root; objects are written as JSON. */
export async function writeFiles(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [path, contents] of Object.entries(files)) {
    const file = join(root, path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, typeof contents === "string" ? contents : JSON.stringify(contents, null, 2));
  }
}

/** Compiles hookyard.json-style rules for a workspace at `root` and puts them in one dispatcher. */
export function dispatcherFor(rules: ConfigRule[], root: string, logger: Logger): Dispatcher {
  const state = new StateStore(join(root, ".hookyard", "state"));
  return new Dispatcher(
    rules.map((rule) => compileRule(rule, { root, origin: "workspace" })),
    {
      logger,
      apiFor: (rule) => trustedApi({ hook: rule.name, root, state: state.forHook(rule.name), logger }),
    },
  );
}

export function toolBefore(fields: Partial<CtxOf<"tool_before">> = {}): CtxOf<"tool_before"> {
  return { sessionId: "session-1", tool: "bash", args: { command: "ls" }, callId: "call-1", ...fields };
}

/** process.kill(pid, 0) throws ESRCH once no such process exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Waits until `pid` no longer exists. A killed orphan stays a zombie until init reaps it, which
 * takes a moment on some machines, so this polls instead of checking once.
 */
export async function waitUntilGone(pid: number, withinMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
