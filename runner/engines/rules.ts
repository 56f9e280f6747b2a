import { join, resolve } from "node:path";
import * as z from "zod";
import type { CompiledHook } from "../compiled-hook.js";
import { rulesDecision } from "../rules/decision.js";
import { matchingRules } from "../rules/evaluate.js";
import { formats, ruleFormats } from "../rules/formats.js";
import { RuleFiles } from "../rules/rule-files.js";
import { type CompileContext, compiledSettings, configuredHookBaseSchema } from "./settings.js";

/**
 * A folder of declarative rules (markdown files with YAML front matter: event, matcher, conditions,
 * action, and the message as body) as one hook. No code runs: a rule is tested, never executed, and
 * its regexes run within a time budget. Files are re-read when they change.
 */
export const rulesHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("rules"),
    /** Default: every point the format's events reach. */
    events: configuredHookBaseSchema.shape.events.optional(),
    /** The folder, relative to the workspace root. */
    dir: z.string().min(1),
    /** "hookify" reads the coding agent's rules plugin files (`hookify.*.local.md`) as that plugin does. */
    format: z.enum(ruleFormats).optional(),
  })
  .strict();

export type RulesHookConfig = z.infer<typeof rulesHookSchema> & {
  /** The folder, already read by whoever found it (loadHooks, which reports its problems at load). */
  files?: RuleFiles;
};

export function rulesHook(config: RulesHookConfig, context: CompileContext): CompiledHook {
  const formatName = config.format ?? "hookyard";
  const format = formats[formatName];
  const files = config.files ?? new RuleFiles(resolve(context.root, config.dir), formatName);
  return {
    ...compiledSettings({ ...config, events: config.events ?? [...format.points] }, context, 1_000),
    engine: "rules",
    trust: "trusted",
    source: join(config.dir, format.glob),
    selfTimed: false,
    // Not read yet, or no rule enabled: nothing to narrow the listing by.
    listedPoints: () => {
      const rules = files.lastRead;
      return rules?.length ? new Set(rules.flatMap((rule) => [...rule.points])) : undefined;
    },
    run: (point, ctx, api) => {
      const { rules, problems } = files.refresh();
      for (const problem of problems) {
        api.log(
          `${problem.code}: ${problem.file}: ${problem.message}; it is skipped, the other rules still apply`,
        );
      }
      return rulesDecision(
        point,
        matchingRules(rules, point, ctx, (message) => api.log(message)),
      );
    },
  };
}
