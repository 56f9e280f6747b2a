import type { AnyCtx, Point } from "../core/events.js";
import type { Decision, HookApi, Matcher } from "../core/hook.js";
import type { RewriteGrant } from "../sandbox/capabilities.js";

export type Origin = "builtin" | "workspace" | "community";

import type { Trust } from "../core/hook.js";

export type { Trust };

/** Registration order for ties in priority: builtin, then workspace, then community. */
export const originOrder: Record<Origin, number> = { builtin: 0, workspace: 1, community: 2 };

/**
 * A compiled hook, whatever runs it. Dispatch knows only this shape; engines live behind
 * `compileHook`.
 */
export interface CompiledHook {
  readonly name: string;
  readonly origin: Origin;
  readonly trust: Trust;
  readonly engine: string;
  /** Where it came from: a file, a command line, a URL. Shown by `hookyard list`. */
  readonly source: string;
  readonly points: readonly Point[];
  /**
   * Where a listing shows it, when that is fewer than `points`: a rules folder runs at every point
   * its format reaches (a rule file added later works at once) but is listed at those its rules use.
   * Undefined (from the function too): listed at every one of `points`.
   */
  readonly listedPoints?: () => ReadonlySet<Point> | undefined;
  readonly priority: number;
  readonly matcher: Matcher | undefined;
  readonly onError: "open" | "block";
  readonly mode: "sync" | "background";
  readonly timeoutMs: number;
  /** True when the engine enforces timeoutMs itself (and cleans up, e.g. kills a process group). */
  readonly selfTimed: boolean;
  /**
   * How long a self-timed engine may take to get ready before a call can start (the sandbox
   * process booting). The engine bounds that wait itself and counts none of it against timeoutMs;
   * dispatch's own timeout, the backstop, allows it on top.
   */
  readonly startupMs?: number;
  /**
   * What a returned rewrite may change (a sandboxed hook's `rewrite` and `redact` grants): a change
   * outside them is undone with a warning, the rest applies; none at all (`[]`) drops every rewrite.
   * Absent means anything rewritable (trusted hooks, command and http hooks).
   */
  readonly rewrites?: readonly RewriteGrant[];
  /** Set on the stand-in for a hook that could not load (broken-hook.ts): why it is not in force. */
  readonly broken?: { code: string; reason: string };
  /** Hooks of one batch that follow each other in a chain are run together, in one round trip. */
  readonly batch?: HookBatch;
  run(
    point: Point,
    ctx: AnyCtx,
    api: HookApi,
  ): Decision | undefined | void | Promise<Decision | undefined | void>;
  close?(): Promise<void>;
}

/**
 * Runs consecutive hooks of a chain together (sandboxed hooks: one round trip to the sandbox
 * process). It runs `hooks` in order on copies of `ctx` and stops after the first answer that
 * changes the ctx, blocks or fails, so every hook that ran saw the ctx its matcher was tested on;
 * dispatch applies the answers one by one and hands the rest back in a later call.
 */
export interface HookBatch {
  run(point: Point, ctx: AnyCtx, hooks: readonly CompiledHook[]): Promise<BatchAnswer[]>;
}

/** What one hook of a batch answered: what its `run` would have returned or thrown, and its time. */
export type BatchAnswer =
  | { ok: true; value: unknown; ms: number }
  | { ok: false; error: unknown; ms: number };

export const defaults = {
  priority: 100,
  onError: "open",
  mode: "sync",
  inprocessTimeoutMs: 5_000,
  externalTimeoutMs: 30_000,
} as const;
