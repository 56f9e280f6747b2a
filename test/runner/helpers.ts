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

/** A trusted in-process rule, compiled the way loadHooks compiles workspace and builtin hooks. */
export function ruleOf(
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

/** A dispatcher over `definitions` (or ready rules), with trusted APIs and state in a temp dir. */
export async function harness(
  definitions: ReadonlyArray<HookDefinition | CompiledHook>,
  options: Partial<Pick<DispatcherOptions, "backgroundLimit" | "drainTimeoutMs">> = {},
): Promise<Harness> {
  const root = await tempDir();
  const logger = recordingLogger();
  const state = new StateStore(join(root, ".hookyard", "state"));
  const rules = definitions.map((d) => ("run" in d ? d : ruleOf(d, "workspace", root)));
  const dispatcher = new Dispatcher(rules, {
    logger,
    apiFor: (rule) => trustedApi({ hook: rule.name, root, state: state.forHook(rule.name), logger }),
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
