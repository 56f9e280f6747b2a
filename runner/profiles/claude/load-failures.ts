import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { configFileName } from "../../config.js";
import type { RunnerErrorCode } from "../../errors.js";
import { type AnyCtx, blockable, type Point } from "../../events.js";
import type { Hooks } from "../../load-hooks.js";
import type { ChainOutcome } from "../../outcome.js";

/** A hook that did not load and asked to fail closed: where it would have run, and why it is not there. */
interface ClosedHook {
  name: string;
  code: RunnerErrorCode;
  message: string;
  /** Its `events` when its rule says; unknown means every blockable point. */
  points: readonly string[] | undefined;
}

/**
 * Hooks that did not load keep their `onError`: one that hookyard.json declares with
 * `onError: "block"` (in its rule or under `hooks.<name>`) blocks every blockable point it would
 * have run at, before any other hook runs, naming itself and why it did not load. Its own file
 * could not be read, so hookyard.json is the only place its wish is known; others fail open.
 */
export async function failClosedOnLoad(hooks: Hooks): Promise<Hooks> {
  const closed = await closedHooks(hooks);
  if (closed.length === 0) return hooks;
  return {
    ...hooks,
    dispatch: (async (point: Point, ctx: AnyCtx) => {
      const hook = blockable(point)
        ? closed.find((c) => c.points === undefined || c.points.includes(point))
        : undefined;
      if (hook === undefined) return hooks.dispatch(point, ctx as never);
      const reason = `hook "${hook.name}" could not be loaded and blocks on error: ${hook.message}`;
      return {
        point,
        ctx,
        verdict: "block",
        blockedBy: { hook: hook.name, reason },
        asks: [],
        continues: [],
        injects: [],
        notices: [],
        runs: [],
        warnings: [{ hook: hook.name, point, code: hook.code, message: reason }],
      } satisfies ChainOutcome;
    }) as Hooks["dispatch"],
  };
}

async function closedHooks(hooks: Hooks): Promise<ClosedHook[]> {
  if (hooks.problems.length === 0) return [];
  const declared = await declaredOnError(hooks.root);
  return hooks.problems.flatMap((problem) => {
    const wish = declared.get(problem.name);
    return wish?.onError === "block"
      ? [{ name: problem.name, code: problem.code, message: problem.message, points: wish.events }]
      : [];
  });
}

/** What hookyard.json says of each name, read leniently: the entry itself may be what failed. */
async function declaredOnError(
  root: string,
): Promise<Map<string, { onError?: unknown; events?: readonly string[] }>> {
  const declared = new Map<string, { onError?: unknown; events?: readonly string[] }>();
  let config: { rules?: unknown; hooks?: unknown };
  try {
    config = JSON.parse(await readFile(join(root, configFileName), "utf8")) as typeof config;
  } catch {
    return declared;
  }
  if (Array.isArray(config?.rules)) {
    for (const rule of config.rules as Array<Record<string, unknown> | null>) {
      if (typeof rule?.name !== "string") continue;
      const events = Array.isArray(rule.events)
        ? rule.events.filter((e) => typeof e === "string")
        : undefined;
      declared.set(rule.name, { onError: rule.onError, ...(events ? { events } : {}) });
    }
  }
  if (typeof config?.hooks === "object" && config.hooks !== null) {
    for (const [name, override] of Object.entries(config.hooks as Record<string, unknown>)) {
      const onError = (override as { onError?: unknown } | null)?.onError;
      if (onError !== undefined) declared.set(name, { ...declared.get(name), onError });
    }
  }
  return declared;
}
