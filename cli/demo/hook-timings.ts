import type { Hooks } from "../../runner/load/load-hooks.js";

export interface HookTiming {
  hook: string;
  origin: string;
  trust: string;
  calls: number;
  totalMs: number;
}

/** Wraps dispatch to add up, per hook, how often it ran and how long it took (as the runner measured it). */
export function timedHooks(hooks: Hooks): { dispatch: Hooks["dispatch"]; timings: () => HookTiming[] } {
  const byHook = new Map<string, HookTiming>();
  return {
    dispatch: async (point, ctx) => {
      const outcome = await hooks.dispatch(point, ctx);
      for (const run of outcome.runs) {
        const timing = byHook.get(run.hook) ?? { ...run, calls: 0, totalMs: 0 };
        timing.calls++;
        timing.totalMs += run.ms;
        byHook.set(run.hook, timing);
      }
      return outcome;
    },
    timings: () =>
      [...byHook.values()].map(({ hook, origin, trust, calls, totalMs }) => ({
        hook,
        origin,
        trust,
        calls,
        totalMs,
      })),
  };
}
