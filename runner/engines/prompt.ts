import * as z from "zod";
import type { CompiledHook } from "../compiled-hook.js";
import { type CompileContext, compiledSettings, configuredHookBaseSchema } from "./settings.js";

/** A static inject: the cheapest hook there is, no code runs. */
export const promptHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("prompt"),
    text: z.string().min(1),
  })
  .strict();

export function promptHook(config: z.infer<typeof promptHookSchema>, context: CompileContext): CompiledHook {
  const decision = { inject: config.text };
  return {
    ...compiledSettings(config, context, 1_000),
    engine: "prompt",
    trust: "trusted",
    source: "hookyard.json",
    selfTimed: false,
    run: () => ({ ...decision }),
  };
}
