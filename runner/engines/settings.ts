import * as z from "zod";
import { type Point, points } from "../../core/events.js";
import { hookNameSchema, hookSettingsSchema } from "../../core/hook.js";
import type { CommunitySandbox } from "../community-sandbox.js";
import { type CompiledHook, defaults, type Origin } from "../compiled-hook.js";
import type { Hooks } from "../load/load-hooks.js";
import type { Logger } from "../logger.js";

/** Fields every hook entry in hookyard.json has, whatever its engine. */
export const configuredHookBaseSchema = hookSettingsSchema.extend({
  name: hookNameSchema,
  events: z.array(z.enum(points as [Point, ...Point[]])).min(1),
});
export type ConfiguredHookBase = z.infer<typeof configuredHookBaseSchema>;

export interface CompileContext {
  /** The workspace root: commands run there, relative paths resolve from there. */
  root: string;
  origin: Origin;
  /** Where sandboxed hooks run; needed only by the sandbox engine. */
  sandbox?: CommunitySandbox;
  /**
   * The workspace's chain, filled in once it is built: the `agent` engine's sub-agent fires its own
   * points through it (one level deeper). Absent, the sub-agent runs without hooks.
   */
  chain?: { dispatch?: Hooks["dispatch"] };
  /** Where an engine says what it skipped (`debug`); absent, nothing is said. */
  logger?: Logger;
}

/** The CompiledHook fields that come from settings, with defaults filled in. */
export function compiledSettings(
  base: ConfiguredHookBase,
  context: CompileContext,
  timeoutMs: number,
): Pick<
  CompiledHook,
  "name" | "origin" | "points" | "priority" | "matcher" | "onError" | "mode" | "timeoutMs"
> {
  return {
    name: base.name,
    origin: context.origin,
    points: [...new Set(base.events)],
    priority: base.priority ?? defaults.priority,
    matcher: base.matcher,
    onError: base.onError ?? defaults.onError,
    mode: base.mode ?? defaults.mode,
    timeoutMs: base.timeoutMs ?? timeoutMs,
  };
}

/** The JSON a command or http hook receives. */
export function hookPayload(hook: CompiledHook, point: Point, ctx: unknown): string {
  return JSON.stringify({ point, hook: hook.name, ctx });
}

/** stdout or a response body: a JSON object is a decision, empty is none, anything else is `undefined`. */
export function parseDecisionText(text: string): { json: unknown } | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return undefined;
  return { json: JSON.parse(trimmed) };
}
