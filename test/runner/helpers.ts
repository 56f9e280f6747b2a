import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { compileRule } from "../../runner/compile-rule.js";
import { Dispatcher, type DispatcherOptions } from "../../runner/dispatch.js";
import type { CtxOf } from "../../runner/events.js";
import { defineHook, type HookDefinition } from "../../runner/hook.js";
import type { Logger } from "../../runner/logger.js";
import type { Origin, Rule } from "../../runner/rule.js";
import { StateStore } from "../../runner/state.js";
import { trustedApi } from "../../runner/trusted-api.js";

const made: string[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh directory under the OS temp dir, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hookyard-runner-"));
  made.push(dir);
  return dir;
}

export interface RecordingLogger extends Logger {
  infos: string[];
  warnings: string[];
  errors: string[];
}

/** A logger that keeps every message, by level. */
export function recordingLogger(): RecordingLogger {
  const infos: string[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  return {
    infos,
    warnings,
    errors,
    info: (m) => void infos.push(m),
    warn: (m) => void warnings.push(m),
    error: (m) => void errors.push(m),
  };
}

/** A trusted in-process rule, compiled the way loadHooks compiles workspace and builtin hooks. */
export function ruleOf(definition: HookDefinition, origin: Origin = "workspace", root = tmpdir()): Rule {
  return compileRule(
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
  definitions: ReadonlyArray<HookDefinition | Rule>,
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

/** A valid tool_before ctx: a bash call with nested args to mutate. */
export function toolBefore(overrides: Partial<CtxOf<"tool_before">> = {}): CtxOf<"tool_before"> {
  return {
    sessionId: "s1",
    tool: "bash",
    args: { command: "ls -la", env: { PATH: "/usr/bin" }, flags: ["-l", "-a"] },
    callId: "c1",
    ...overrides,
  };
}

/** A valid tool_after ctx for the same bash call. */
export function toolAfter(overrides: Partial<CtxOf<"tool_after">> = {}): CtxOf<"tool_after"> {
  return { ...toolBefore(), result: "total 0", ...overrides };
}

export function turnBefore(prompt = "hello"): CtxOf<"turn_before"> {
  return { sessionId: "s1", prompt, history: [{ role: "user", content: "earlier" }] };
}

export function turnAfter(): CtxOf<"turn_after"> {
  return { sessionId: "s1", answer: "done", messages: [{ role: "assistant", content: "done" }] };
}

export function agentAfter(): CtxOf<"agent_after"> {
  return {
    sessionId: "s1",
    reason: "finished",
    stats: { turns: 1, modelCalls: 1, toolCalls: 1, durationMs: 10 },
  };
}
