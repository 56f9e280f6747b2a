import type { Point } from "../../core/events.js";
import type { HookDefinition } from "../../core/hook.js";
import { type CompiledHook, defaults } from "../compiled-hook.js";
import type { CompileContext } from "./settings.js";

export interface InprocessConfig {
  engine: "inprocess";
  definition: HookDefinition;
  /** The file the hook was loaded from, or "builtin". */
  source: string;
}

/** A trusted hook: its handler gets the live ctx (through a journaled view) and the full host API. */
export function inprocessHook(config: InprocessConfig, context: CompileContext): CompiledHook {
  const { definition } = config;
  const handlers = definition.on as Record<string, (ctx: unknown, api: unknown) => unknown>;
  return {
    name: definition.name,
    origin: context.origin,
    trust: "trusted",
    engine: "inprocess",
    source: config.source,
    points: Object.keys(definition.on) as Point[],
    priority: definition.priority ?? defaults.priority,
    matcher: definition.matcher,
    onError: definition.onError ?? defaults.onError,
    mode: definition.mode ?? defaults.mode,
    timeoutMs: definition.timeoutMs ?? defaults.inprocessTimeoutMs,
    selfTimed: false,
    run: (point, ctx, api) => handlers[point]?.(ctx, api) as ReturnType<CompiledHook["run"]>,
  };
}
