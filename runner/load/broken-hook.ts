import { type LoadProblem, RunnerError } from "../../core/errors.js";
import { blockable, isPoint, type Point, points } from "../../core/events.js";
import type { CompiledHook, Origin } from "../compiled-hook.js";
import { brokenReason } from "./not-in-force.js";

/** Blockable points: where a hook that is not in force would have been able to stop something. */
const blockablePoints = points.filter(blockable);

/**
 * The failing hook that stands in for one that the workspace says should run but could not load
 * (missing or changed store bytes, a syntax error, an invalid override or matcher). It fails closed
 * at the blockable points the hook declares (all of them when its points cannot be read), so a guard
 * never silently vanishes; `onError: "open"` in hookyard.json opts a hook out, and then there is no
 * stand-in at all: the problem is reported once, at load. Observe-only points are never affected.
 * Undefined when nothing would be blocked.
 */
export function brokenHook(problem: LoadProblem, origin: Origin): CompiledHook | undefined {
  if (problem.setting || problem.onError === "open") return undefined;
  const declared = problem.points?.filter(isPoint);
  const at = declared ? blockablePoints.filter((point) => declared.includes(point)) : blockablePoints;
  if (at.length === 0) return undefined;
  const reason = brokenReason(problem);
  return {
    name: problem.name,
    origin,
    trust: origin === "community" ? "sandboxed" : "trusted",
    engine: "broken",
    source: problem.file ?? "hookyard.json",
    points: at,
    // First in every chain: the call is refused before any other hook acts on it.
    priority: Number.MIN_SAFE_INTEGER,
    matcher: undefined,
    onError: "block",
    mode: "sync",
    timeoutMs: 1_000,
    selfTimed: false,
    broken: { code: problem.code, reason },
    run(point: Point) {
      throw new RunnerError(problem.code, reason, { hook: problem.name, point });
    },
  };
}
