import { RunnerError } from "../core/errors.js";
import type { AnyCtx, Point } from "../core/events.js";
import type { ChainVerdict } from "../core/hook.js";
import {
  createSandbox,
  defaultSandboxLimits,
  type HookAnswer,
  type Sandbox,
  SandboxError,
  type SandboxHook,
  type SandboxLimits,
  type SandboxOptions,
} from "../sandbox/index.js";
import type { BatchAnswer, CompiledHook, HookBatch } from "./compiled-hook.js";
import type { Logger } from "./logger.js";
import type { StateStore } from "./state.js";

export interface CommunitySandboxOptions {
  root: string;
  logger: Logger;
  state: StateStore;
  isolation?: SandboxOptions["isolation"];
  limits?: Partial<SandboxLimits>;
  /** Name → addresses consulted before DNS by net grants (tests inject a resolver this way). */
  hosts?: Record<string, string[]>;
  auditFile?: string;
  /**
   * An already created sandbox to run in; the caller closes it. It keeps the isolation, hosts,
   * audit file and services it was made with.
   */
  sandbox?: Sandbox;
}

/**
 * The runner's side of the sandbox: starts it on the first call (so a workspace without community
 * hooks never loads isolated-vm), turns each hook's answer into what its CompiledHook would return or
 * throw, and is the batch that lets consecutive sandboxed hooks share one round trip.
 */
export class CommunitySandbox {
  private sandbox: Sandbox | undefined;
  private readonly hooks = new WeakMap<CompiledHook, SandboxHook>();
  /** The sandbox speaks of hooks by id (name@integrity); users and state files know them by name. */
  private readonly names = new Map<string, string>();
  readonly batch: HookBatch = { run: (point, ctx, hooks) => this.run(point, ctx, hooks) };

  constructor(private readonly options: CommunitySandboxOptions) {}

  register(compiled: CompiledHook, hook: SandboxHook): void {
    this.hooks.set(compiled, hook);
    this.names.set(hook.id, hook.name);
  }

  /** The wall time a call may take, which is also the hook's timeout as dispatch sees it. */
  wallMs(limits: Partial<SandboxLimits> = {}): number {
    return limits.wallMs ?? this.options.limits?.wallMs ?? defaultSandboxLimits.wallMs;
  }

  async run(
    point: Point,
    ctx: AnyCtx,
    hooks: readonly CompiledHook[],
    outcome?: ChainVerdict,
  ): Promise<BatchAnswer[]> {
    const sandboxed = hooks.map((hook) => {
      const registered = this.hooks.get(hook);
      if (!registered) throw new Error(`hook "${hook.name}" is not registered with the sandbox`);
      return registered;
    });
    const json = JSON.stringify(ctx);
    const answers = await this.start().run(point, json, sandboxed, outcome ? { outcome } : {});
    return answers.map((answer, i) => toBatchAnswer(answer, hooks[i] as CompiledHook, point, ctx));
  }

  /**
   * Starts the sandbox process in the background (process isolation), so the first event finds it
   * up: forking Node takes about 100 ms here, longer than a warm call by three orders of magnitude.
   */
  prestart(): void {
    this.start().start();
  }

  /** Hook ids quarantined this session. */
  get quarantined(): ReadonlySet<string> {
    return this.sandbox?.quarantined ?? new Set();
  }

  /** Names of the hooks quarantined this session. */
  get quarantinedNames(): string[] {
    return [...this.quarantined].map((id) => this.name(id));
  }

  /** The sandbox process's pid while it runs (process isolation). */
  get pid(): number | undefined {
    return this.sandbox?.pid;
  }

  async close(): Promise<void> {
    if (!this.options.sandbox) await this.sandbox?.close();
  }

  private name(id: string): string {
    return this.names.get(id) ?? id;
  }

  private start(): Sandbox {
    if (this.sandbox) return this.sandbox;
    if (this.options.sandbox) {
      this.sandbox = this.options.sandbox;
      return this.sandbox;
    }
    const { root, logger, state } = this.options;
    let isolation = this.options.isolation ?? "process";
    // Inline isolates need --no-node-snapshot on this process's command line, which the bin no
    // longer passes to every command. Failing every sandboxed hook (open by default) would switch
    // guards off; the sandbox process keeps them on, at the cost of a fork.
    if (isolation === "inline" && !process.execArgv.includes("--no-node-snapshot")) {
      logger.warn(
        'sandbox.isolation "inline" needs this process started with --no-node-snapshot (`node --no-node-snapshot $(command -v hookyard) …`); sandboxed hooks run in the sandbox process instead',
      );
      isolation = "process";
    }
    this.sandbox = createSandbox({
      isolation,
      root,
      ...(this.options.limits ? { limits: this.options.limits } : {}),
      ...(this.options.hosts ? { hosts: this.options.hosts } : {}),
      ...(this.options.auditFile ? { auditFile: this.options.auditFile } : {}),
      services: {
        log: (id, text) => logger.info(`[${this.name(id)}] ${text}`),
        warn: (message) => logger.warn(message),
        // By name, so a hook keeps its state across upgrades (a new integrity is a new id).
        stateGet: (id, key) => state.forHook(this.name(id)).get(key),
        stateSet: (id, key, value) => state.forHook(this.name(id)).set(key, value),
      },
    });
    return this.sandbox;
  }
}

/** Defines rather than assigns, so a changed field named __proto__ stays a key and never sets a prototype. */
function setField(target: Record<string, unknown>, field: string, value: unknown): void {
  Object.defineProperty(target, field, { value, enumerable: true, writable: true, configurable: true });
}

/** A sandbox answer as the hook's own return or throw: a changed ctx copy becomes a returned rewrite. */
function toBatchAnswer(answer: HookAnswer, hook: CompiledHook, point: Point, before: AnyCtx): BatchAnswer {
  // Quarantined, the user was told once: failing open, it is left out quietly rather than logged per call.
  if (answer.status === "error" && answer.code === "SANDBOX_ERR_QUARANTINED" && hook.onError === "open") {
    return { ok: true, value: undefined, ms: answer.ms };
  }
  if (answer.status === "error") {
    const code =
      answer.code === "SANDBOX_ERR_TIMEOUT"
        ? "RUN_ERR_HOOK_TIMEOUT"
        : answer.code === "SANDBOX_ERR_THREW"
          ? "RUN_ERR_HOOK_THREW"
          : "RUN_ERR_SANDBOX";
    const message =
      code === "RUN_ERR_SANDBOX"
        ? `${answer.code}: ${answer.message}`
        : withGrantHint(answer.message, hook.name);
    // The sandbox's own code stays on the error as its cause, whatever runner code it maps to.
    const cause = new SandboxError(answer.code, answer.message);
    return {
      ok: false,
      error: new RunnerError(code, message, { hook: hook.name, point, cause }),
      ms: answer.ms,
    };
  }
  if (answer.ctx === undefined) return { ok: true, value: answer.decision, ms: answer.ms };
  const changed = changedFields(before, answer.ctx as Record<string, unknown>);
  const decision = answer.decision ?? {};
  if (typeof decision !== "object" || Array.isArray(decision))
    return { ok: true, value: decision, ms: answer.ms };
  const returned = (decision as { rewrite?: unknown }).rewrite;
  const rewrite = { ...changed, ...(typeof returned === "object" && returned !== null ? returned : {}) };
  return { ok: true, value: { ...decision, rewrite }, ms: answer.ms };
}

/**
 * A hook that let a missing grant's CapabilityDenied escape: the user reading the failure learns
 * the grant it needs and the command that gives it (granting stays their choice).
 */
function withGrantHint(message: string, packageName: string): string {
  const needs = /^CapabilityDenied: needs (\S+)/.exec(message)?.[1];
  return needs ? `${message}; to allow it: hookyard grant ${packageName} ${needs}` : message;
}

/** Top-level fields whose JSON differs; a removed field shows as undefined, which the schema refuses. */
function changedFields(before: AnyCtx, after: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      setField(changed, field, after[field]);
  }
  return changed;
}
