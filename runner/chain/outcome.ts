import type { RunnerErrorCode } from "../../core/errors.js";
import type { AnyCtx, Effect, Point } from "../../core/events.js";
import type { ChainVerdict } from "../../core/hook.js";
import type { Origin, Trust } from "../compiled-hook.js";

export interface Attributed {
  hook: string;
  text: string;
}

export interface HookRun {
  hook: string;
  origin: Origin;
  trust: Trust;
  engine: string;
  ms: number;
  status: "ok" | "error" | "timeout";
  effects: Effect[];
}

export interface DispatchWarning {
  hook: string;
  point: Point;
  /** RUN_ERR_HOOK_THREW, RUN_ERR_HOOK_TIMEOUT, … for failures; RUN_ERR_EFFECT_DROPPED for dropped effects. */
  code: RunnerErrorCode;
  message: string;
}

/** What one chain decided. `ctx` is the same object that was passed in, as the hooks left it. */
export interface ChainOutcome<C extends AnyCtx = AnyCtx> {
  point: Point;
  ctx: C;
  verdict: ChainVerdict["verdict"];
  blockedBy?: { hook: string; reason: string };
  asks: Array<{ hook: string; reason: string }>;
  continues: Array<{ hook: string; reason: string }>;
  injects: Attributed[];
  notices: Attributed[];
  runs: HookRun[];
  warnings: DispatchWarning[];
}
