import * as z from "zod";
import type { CompiledHook } from "./compiled-hook.js";
import { type AgentHookConfig, agentHook, agentHookSchema } from "./engines/agent.js";
import { type CommandHookConfig, commandHook, commandHookSchema } from "./engines/command.js";
import { type HttpHookConfig, httpHook, httpHookSchema } from "./engines/http.js";
import { type InprocessConfig, inprocessHook } from "./engines/inprocess.js";
import { type JudgeHookConfig, judgeHook, judgeHookSchema } from "./engines/judge.js";
import { promptHook, promptHookSchema } from "./engines/prompt.js";
import { type RulesHookConfig, rulesHook, rulesHookSchema } from "./engines/rules.js";
import { type SandboxHookConfig, sandboxHook } from "./engines/sandbox.js";
import type { CompileContext } from "./engines/settings.js";

/** Hooks that hookyard.json may declare (its `rules` entries): engines that need no code of their own. */
export const configuredHookSchema = z.discriminatedUnion("engine", [
  commandHookSchema,
  httpHookSchema,
  promptHookSchema,
  rulesHookSchema,
  agentHookSchema,
  judgeHookSchema,
]);
export type ConfiguredHook = z.infer<typeof configuredHookSchema>;

export type HookConfig = InprocessConfig | SandboxHookConfig | ConfiguredHook | RulesHookConfig;

/** The only place that knows engines: picks one by `config.engine` and builds the CompiledHook. */
export function compileHook(config: HookConfig, context: CompileContext): CompiledHook {
  switch (config.engine) {
    case "inprocess":
      return inprocessHook(config, context);
    case "sandbox":
      return sandboxHook(config, context);
    case "prompt":
      return promptHook(config, context);
    case "command":
      return commandHook(config as CommandHookConfig, context);
    case "http":
      return httpHook(config as HttpHookConfig, context);
    case "rules":
      return rulesHook(config as RulesHookConfig, context);
    case "agent":
      return agentHook(config as AgentHookConfig, context);
    case "judge":
      return judgeHook(config as JudgeHookConfig, context);
  }
}

export type { CompileContext };
