import { z } from "zod";
import { claudeCommandHook, claudeProfileIssue } from "../../adapters/claude/hook-scripts/command-hook.js";
import { RunnerError } from "../../core/errors.js";
import { type Decision, matcherSchema } from "../../core/hook.js";
import { type CompiledHook, defaults } from "../compiled-hook.js";
import {
  commandArgv,
  commandSource,
  exitText,
  hookProcessEnv,
  type ProcessResult,
  runProcess,
} from "./command-process.js";
import {
  type CompileContext,
  hookPayload,
  parseDecisionText,
  ruleBaseSchema,
  ruleSettings,
} from "./settings.js";

/**
 * A hook as a process, the way coding agents run hooks today. A string runs through `sh -c`; an
 * array runs without a shell (argv[0] looked up on PATH). The ctx arrives on stdin as JSON; with
 * `profile: "claude"`, that agent's hook input instead, and the answer is read by its rules.
 */
export const commandHookSchema = ruleBaseSchema
  .extend({
    engine: z.literal("command"),
    command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
    env: z.record(z.string(), z.string()).optional(),
    profile: z.literal("claude").optional(),
    /** A string is that agent's matcher (`Bash|Write`, a regex, `*`): only with a profile. */
    matcher: z.union([matcherSchema, z.string()]).optional(),
  })
  .strict()
  .superRefine((config, check) => {
    const issue = claudeProfileIssue(config);
    if (issue) check.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  });
export type CommandHookConfig = z.infer<typeof commandHookSchema>;

/** A block reason goes to the model; coding agents cap hook output for it at the same length. */
const reasonCap = 10_000;

export function commandHook(config: CommandHookConfig, context: CompileContext): CompiledHook {
  if (config.profile === "claude") return claudeCommandHook(config, context);
  const argv = commandArgv(config.command);
  const settings = ruleSettings(
    { ...config, matcher: typeof config.matcher === "string" ? undefined : config.matcher },
    context,
    defaults.externalTimeoutMs,
  );
  const rule: CompiledHook = {
    ...settings,
    engine: "command",
    trust: "trusted",
    source: commandSource(config.command),
    selfTimed: true,
    run: async (point, ctx) => {
      const result = await runProcess(argv, hookPayload(rule, point, ctx), {
        cwd: context.root,
        env: hookProcessEnv(config.env, rule.name, point, context.root),
        timeoutMs: rule.timeoutMs,
      });
      return interpret(result, rule.name);
    },
  };
  return rule;
}

function interpret(result: ProcessResult, hook: string): Decision | undefined {
  if (result.code === 2) {
    const reason = result.stderr.trim().slice(0, reasonCap);
    return { block: reason || `blocked by command hook "${hook}" (exit 2, no reason given)` };
  }
  if (result.code !== 0) throw new RunnerError("RUN_ERR_COMMAND_FAILED", exitText(result), { hook });
  let parsed: { json: unknown } | undefined;
  try {
    parsed = parseDecisionText(result.stdout);
  } catch (error) {
    throw new RunnerError("RUN_ERR_COMMAND_FAILED", "stdout starts with { but is not valid JSON", {
      hook,
      cause: error,
    });
  }
  return parsed?.json as Decision | undefined;
}
