import { z } from "zod";
import type { Rule } from "../rule.js";
import { type CompileContext, ruleBaseSchema, ruleSettings } from "./settings.js";

/** A static inject: the cheapest hook there is, no code runs. */
export const promptRuleSchema = ruleBaseSchema
  .extend({
    engine: z.literal("prompt"),
    text: z.string().min(1),
  })
  .strict();

export function promptRule(config: z.infer<typeof promptRuleSchema>, context: CompileContext): Rule {
  const decision = { inject: config.text };
  return {
    ...ruleSettings(config, context, 1_000),
    engine: "prompt",
    trust: "trusted",
    source: "hookyard.json",
    selfTimed: false,
    run: () => ({ ...decision }),
  };
}
