import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineHook, type HookDefinition } from "../../core/hook.js";
import { Dispatcher, type DispatcherOptions } from "../../runner/chain/dispatch.js";
import { compileHook } from "../../runner/compile-hook.js";
import type { CompiledHook, Origin } from "../../runner/compiled-hook.js";
import { StateStore } from "../../runner/state.js";
import { trustedApi } from "../../runner/trusted-api.js";
import { type RecordingLogger, recordingLogger } from "../helpers/logger.js";
import { tempDir } from "../helpers/temp.js";

/** A trusted in-process hook, compiled the way loadHooks compiles workspace and builtin hooks. */
export function hookOf(
  definition: HookDefinition,
  origin: Origin = "workspace",
  root = tmpdir(),
): CompiledHook {
  return compileHook(
    { engine: "inprocess", definition: defineHook(definition), source: "test" },
    { root, origin },
  );
}

export interface Harness {
  dispatcher: Dispatcher;
  logger: RecordingLogger;
  root: string;
  state: StateStore;
}

/** A dispatcher over `definitions` (or ready hooks), with trusted APIs and state in a temp dir. */
export async function harness(
  definitions: ReadonlyArray<HookDefinition | CompiledHook>,
  options: Partial<Pick<DispatcherOptions, "backgroundLimit" | "drainTimeoutMs">> = {},
): Promise<Harness> {
  const root = await tempDir();
  const logger = recordingLogger();
  const state = new StateStore(join(root, ".hookyard", "state"));
  const hooks = definitions.map((d) => ("run" in d ? d : hookOf(d, "workspace", root)));
  const dispatcher = new Dispatcher(hooks, {
    logger,
    apiFor: (hook) => trustedApi({ hook: hook.name, root, state: state.forHook(hook.name), logger }),
    ...options,
  });
  return { dispatcher, logger, root, state };
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
