import type { Grant } from "../../sandbox/capabilities.js";
import type { SandboxLimits } from "../../sandbox/index.js";
import { describeIssues, RunnerError } from "../errors.js";
import type { Point } from "../events.js";
import { type HookSettings, hookSettingsSchema } from "../hook.js";
import { defaults, type Rule } from "../rule.js";
import type { CompileContext } from "./settings.js";

export interface SandboxRuleConfig {
  engine: "sandbox";
  name: string;
  /** Where the bytes came from, shown by `hookyard list`: a package in the store, or a file. */
  source: string;
  /** The bundle bytes the caller hashed and verified: compiled exactly as given, never re-read. */
  code: Buffer;
  /** The identity of those bytes (an SRI integrity); the isolate is keyed by name and integrity. */
  integrity: string;
  events: readonly Point[];
  settings?: HookSettings;
  grants: readonly Grant[];
  limits?: Partial<SandboxLimits>;
}

const settingsSchema = hookSettingsSchema.strict();

/** A community hook: its handler runs in an isolate, on a copy of ctx, with only the granted API. */
export function sandboxRule(config: SandboxRuleConfig, context: CompileContext): Rule {
  const sandbox = context.sandbox;
  if (!sandbox) throw new Error("a sandbox rule needs a sandbox in its compile context");
  const parsed = settingsSchema.safeParse(config.settings ?? {});
  if (!parsed.success) {
    throw new RunnerError(
      "RUN_ERR_HOOK_INVALID",
      `its settings are invalid: ${describeIssues(parsed.error)}`,
    );
  }
  const settings = parsed.data;
  const rule: Rule = {
    name: config.name,
    origin: context.origin,
    trust: "sandboxed",
    engine: "sandbox",
    source: config.source,
    points: [...new Set(config.events)],
    priority: settings.priority ?? defaults.priority,
    matcher: settings.matcher,
    onError: settings.onError ?? defaults.onError,
    mode: settings.mode ?? defaults.mode,
    timeoutMs: settings.timeoutMs ?? sandbox.wallMs(config.limits),
    selfTimed: true,
    mayRewrite: config.grants.some((grant) => grant.kind === "rewrite"),
    batch: sandbox.batch,
    run: async (point, ctx, api) => {
      const [answer] = await sandbox.run(point, ctx, [rule], api.outcome);
      if (!answer) throw new Error("the sandbox did not answer");
      if (!answer.ok) throw answer.error;
      return answer.value as ReturnType<Rule["run"]>;
    },
  };
  sandbox.register(rule, {
    id: `${config.name}@${config.integrity}`,
    name: config.name,
    code: config.code,
    points: rule.points,
    grants: config.grants,
    // The hook's timeout is the sandbox's wall limit for it, so the sandbox stops it in time.
    limits: { ...config.limits, wallMs: rule.timeoutMs },
  });
  return rule;
}
