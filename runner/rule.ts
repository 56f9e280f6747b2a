import type { AnyCtx, Point } from "./events.js";
import type { Decision, HookApi, Matcher } from "./hook.js";

export type Origin = "builtin" | "workspace" | "community";
export type Trust = "trusted" | "sandboxed";

/** Registration order for ties in priority: builtin, then workspace, then community. */
export const originOrder: Record<Origin, number> = { builtin: 0, workspace: 1, community: 2 };

/**
 * A compiled hook, whatever runs it. Dispatch knows only this shape; engines live behind
 * `compileRule`.
 */
export interface Rule {
  readonly name: string;
  readonly origin: Origin;
  readonly trust: Trust;
  readonly engine: string;
  /** Where it came from: a file, a command line, a URL. Shown by `hookyard list`. */
  readonly source: string;
  readonly points: readonly Point[];
  readonly priority: number;
  readonly matcher: Matcher | undefined;
  readonly onError: "open" | "block";
  readonly mode: "sync" | "background";
  readonly timeoutMs: number;
  /** True when the engine enforces timeoutMs itself (and cleans up, e.g. kills a process group). */
  readonly selfTimed: boolean;
  run(
    point: Point,
    ctx: AnyCtx,
    api: HookApi,
  ): Decision | undefined | void | Promise<Decision | undefined | void>;
  close?(): Promise<void>;
}

export const defaults = {
  priority: 100,
  onError: "open",
  mode: "sync",
  inprocessTimeoutMs: 5_000,
  externalTimeoutMs: 30_000,
} as const;
