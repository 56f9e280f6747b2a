import * as z from "zod";
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
import { scriptProtocol, scriptProtocolNames } from "./script-protocols.js";
import {
  type CompileContext,
  compiledSettings,
  configuredHookBaseSchema,
  hookPayload,
  parseDecisionText,
} from "./settings.js";

/**
 * A hook as a process, the way coding agents run hooks today. A string runs through `sh -c`; an
 * array runs without a shell (argv[0] looked up on PATH). The ctx arrives on stdin as JSON; with a
 * `profile` (a coding agent's name), that agent's hook input instead, and the answer is read by its
 * rules (runner/engines/script-protocols.ts).
 */
export const commandHookSchema = configuredHookBaseSchema
  .extend({
    engine: z.literal("command"),
    command: z.union([z.string().min(1), z.array(z.string()).min(1)]),
    env: z.record(z.string(), z.string()).optional(),
    profile: z.string().optional(),
    /** A string is that agent's matcher (`Bash|Write`, a regex, `*`): only with a profile. */
    matcher: z.union([matcherSchema, z.string()]).optional(),
  })
  .strict()
  .superRefine((config, check) => {
    const issue = profileIssue(config);
    if (issue) check.addIssue({ code: "custom", path: [issue.field], message: issue.message });
  });
export type CommandHookConfig = z.infer<typeof commandHookSchema>;

/** A block reason goes to the model; coding agents cap hook output for it at the same length. */
const reasonCap = 10_000;

/** What is wrong with a command hook's profile settings, or undefined: checked when hookyard.json is read. */
function profileIssue(
  config: Pick<z.infer<typeof configuredHookBaseSchema>, "events"> & { profile?: string; matcher?: unknown },
): { field: string; message: string } | undefined {
  if (config.profile === undefined) {
    if (typeof config.matcher !== "string") return undefined;
    const profiles = scriptProtocolNames().map((name) => `"${name}"`);
    return {
      field: "matcher",
      message: `a matcher string (a coding agent's form) needs "profile": ${profiles.join(" or ") || '"<agent>"'}; ours is { "field": "regex" }`,
    };
  }
  const protocol = scriptProtocol(config.profile);
  if (!protocol) {
    const known = scriptProtocolNames();
    return {
      field: "profile",
      message: `no coding agent's hook scripts are known as "${config.profile}" (${known.length > 0 ? `known: ${known.join(", ")}` : "none are registered in this process"})`,
    };
  }
  const unsupported = config.events.filter((point) => !protocol.points.includes(point));
  if (unsupported.length > 0) {
    return {
      field: "events",
      message: `the ${protocol.name} profile has no event for ${unsupported.join(", ")} (it runs at ${protocol.points.join(", ")})`,
    };
  }
  if (typeof config.matcher === "string") {
    const issue = protocol.matcherIssue(config.matcher);
    if (issue) return { field: "matcher", message: issue };
  }
  return undefined;
}

export function commandHook(config: CommandHookConfig, context: CompileContext): CompiledHook {
  const argv = commandArgv(config.command);
  const protocol = config.profile === undefined ? undefined : scriptProtocol(config.profile);
  if (config.profile !== undefined && !protocol) {
    throw new RunnerError("RUN_ERR_HOOK_INVALID", `its profile "${config.profile}" is not known here`);
  }
  const agentMatcher = typeof config.matcher === "string" ? config.matcher : undefined;
  const caller = protocol?.caller(agentMatcher, context.root);
  const settings = compiledSettings(
    { ...config, matcher: typeof config.matcher === "string" ? undefined : config.matcher },
    context,
    defaults.externalTimeoutMs,
  );
  const hook: CompiledHook = {
    ...settings,
    engine: "command",
    trust: "trusted",
    source: commandSource(config.command),
    selfTimed: true,
    run: async (point, ctx, api) => {
      const log = (message: string) => api.log(message);
      const call = caller ? caller(point, ctx, log) : { stdin: hookPayload(hook, point, ctx), env: {} };
      if (!call) return undefined;
      const result = await runProcess(argv, call.stdin, {
        cwd: context.root,
        // What that agent gives its hooks, beside what hookyard gives every command hook.
        env: { ...hookProcessEnv(config.env, hook.name, point, context.root), ...call.env },
        timeoutMs: hook.timeoutMs,
      });
      return protocol ? protocol.answer(point, ctx, result, hook.name, log) : interpret(result, hook.name);
    },
  };
  return hook;
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
