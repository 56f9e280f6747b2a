import { join } from "node:path";
import { Dispatcher } from "../../../runner/chain/dispatch.js";
import { type ConfiguredHook, compileHook } from "../../../runner/compile-hook.js";
import type { Logger } from "../../../runner/logger.js";
import { StateStore } from "../../../runner/state.js";
import { trustedApi } from "../../../runner/trusted-api.js";

/** Compiles hookyard.json-style hooks for a workspace at `root` and puts them in one dispatcher. */
export function dispatcherFor(hooks: ConfiguredHook[], root: string, logger: Logger): Dispatcher {
  const state = new StateStore(join(root, ".hookyard", "state"));
  return new Dispatcher(
    hooks.map((hook) => compileHook(hook, { root, origin: "workspace" })),
    {
      logger,
      apiFor: (hook) => trustedApi({ hook: hook.name, root, state: state.forHook(hook.name), logger }),
    },
  );
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
