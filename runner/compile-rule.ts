import { z } from "zod";
import { type CommandRuleConfig, commandRule, commandRuleSchema } from "./engines/command.js";
import { type HttpRuleConfig, httpRule, httpRuleSchema } from "./engines/http.js";
import { type InprocessConfig, inprocessRule } from "./engines/inprocess.js";
import { promptRule, promptRuleSchema } from "./engines/prompt.js";
import { type RulesRuleConfig, rulesRule, rulesRuleSchema } from "./engines/rules.js";
import { type SandboxRuleConfig, sandboxRule } from "./engines/sandbox.js";
import type { CompileContext } from "./engines/settings.js";
import type { Rule } from "./rule.js";

/** Rules that hookyard.json may declare: engines that need no code of their own. */
export const configRuleSchema = z.discriminatedUnion("engine", [
  commandRuleSchema,
  httpRuleSchema,
  promptRuleSchema,
  rulesRuleSchema,
]);
export type ConfigRule = z.infer<typeof configRuleSchema>;

export type RuleConfig = InprocessConfig | SandboxRuleConfig | ConfigRule | RulesRuleConfig;

/** The only place that knows engines: picks one by `config.engine` and builds the Rule. */
export function compileRule(config: RuleConfig, context: CompileContext): Rule {
  switch (config.engine) {
    case "inprocess":
      return inprocessRule(config, context);
    case "sandbox":
      return sandboxRule(config, context);
    case "prompt":
      return promptRule(config, context);
    case "command":
      return commandRule(config as CommandRuleConfig, context);
    case "http":
      return httpRule(config as HttpRuleConfig, context);
    case "rules":
      return rulesRule(config as RulesRuleConfig, context);
  }
}

export type { CompileContext };
