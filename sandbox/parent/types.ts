import type { Grant } from "../capabilities.js";
import type { HookAnswer, HookSpec, RunRequest, SandboxLimits, SyncChainVerdict } from "../wire/types.js";

export interface SandboxHook {
  /** Unique key, e.g. `${name}@${integrity}`: one isolate per id, created on first use and reused. */
  id: string;
  /** For messages, logs and `api.hook`. */
  name: string;
  /** The bundle bytes the caller hashed and verified: compiled exactly as given (UTF-8), never re-read. */
  code: Buffer;
  points: readonly string[];
  grants: readonly Grant[];
  limits?: Partial<SandboxLimits>;
  /** JSON handed to the hook as a deep-frozen `api.config`. */
  config?: Readonly<Record<string, unknown>>;
}

export interface RunOptions {
  /** For background hooks: what the synchronous chain decided, given to the hook as `api.outcome`. */
  outcome?: SyncChainVerdict;
}

export interface Sandbox {
  /**
   * Runs hooks in order, each on a fresh copy of ctx (parsed from ctxJson), in one round trip to
   * the sandbox process. Stops after the first hook that failed, returned a decision with `block`,
   * or changed its ctx copy; returns answers for those that ran (the caller applies them and calls
   * again with the rest). Quarantined hooks answer SANDBOX_ERR_QUARANTINED at once.
   */
  run(
    point: string,
    ctxJson: string,
    hooks: readonly SandboxHook[],
    options?: RunOptions,
  ): Promise<HookAnswer[]>;
  /**
   * Starts the sandbox process in the background (process isolation), so that the first call does
   * not wait for Node to boot; a no-op inline, once closed, or while the process is up. Call it
   * when community hooks are loaded. It never throws: a process that cannot start fails the first call.
   */
  start(): void;
  /** Ids of the hooks quarantined this session. */
  readonly quarantined: ReadonlySet<string>;
  /** The sandbox process's pid while it runs (process isolation), else undefined. */
  readonly pid: number | undefined;
  /** Kills the sandbox process or disposes the isolates; calls in flight answer SANDBOX_ERR_CLOSED. Idempotent. */
  close(): Promise<void>;
}

/** Implemented by the runner, always in the runner's own process. `hook` is a SandboxHook id. */
export interface ParentServices {
  /** A line a hook logged, already capped per call; the runner tags it. */
  log(hook: string, text: string): void;
  /** Something the user should know, e.g. that a hook was quarantined; each is said once. */
  warn(message: string): void;
  stateGet(hook: string, key: string): Promise<unknown>;
  stateSet(hook: string, key: string, value: unknown): Promise<void>;
}

export interface SandboxOptions {
  /**
   * "process" (default, safe): isolates live in a supervised child process. "inline": isolates
   * live in this process: faster, but a heap exhaustion or a hostile hook can abort or hang it.
   */
  isolation: "process" | "inline";
  /** Workspace root: the broker resolves hook paths from it. */
  root: string;
  services: ParentServices;
  /** JSONL capability audit; default <root>/.hookyard/logs/capabilities.jsonl. */
  auditFile?: string;
  /** Name → addresses, consulted before DNS by every broker (tests inject a resolver this way). */
  hosts?: Record<string, string[]>;
  limits?: Partial<SandboxLimits>;
  /** Isolate failures (timeout, memory, crash) per hook per session before it is quarantined; default 3. */
  quarantineAfter?: number;
}

/** Where the isolates live: this process, or a supervised sandbox process. */
export interface Backend {
  /** Answers for the hooks that ran, in order; the hook lines they logged already went to ParentServices.log. */
  run(request: RunRequest, hooks: readonly HookSpec[]): Promise<HookAnswer[]>;
  /** Gets ready for the first call without making one: the sandbox process starts booting. */
  start(): void;
  /** Frees a quarantined hook's isolate. */
  drop(id: string): void;
  close(): Promise<void>;
  readonly pid: number | undefined;
}

export interface BackendOptions {
  root: string;
  auditFile: string;
  hosts?: Record<string, string[]> | undefined;
  services: ParentServices;
}
