import { describeIssues, RunnerError } from "../../core/errors.js";
import type { Point } from "../../core/events.js";
import { type HookSettings, hookSettingsSchema } from "../../core/hook.js";
import { type Grant, isRewriteGrant } from "../../sandbox/capabilities.js";
import { type SandboxLimits, sandboxStartupMs } from "../../sandbox/index.js";
import type { CompiledHook } from "../compiled-hook.js";
import { type CompileContext, compiledSettings } from "./settings.js";

export interface SandboxHookConfig {
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
  /** `api.config` inside the isolate (hookyard.json's `hooks.<name>.config`). */
  config?: Readonly<Record<string, unknown>>;
}

const settingsSchema = hookSettingsSchema.strict();

/** A community hook: its handler runs in an isolate, on a copy of ctx, with only the granted API. */
export function sandboxHook(config: SandboxHookConfig, context: CompileContext): CompiledHook {
  const sandbox = context.sandbox;
  if (!sandbox) throw new Error("a sandbox hook needs a sandbox in its compile context");
  const parsed = settingsSchema.safeParse(config.settings ?? {});
  if (!parsed.success) {
    throw new RunnerError(
      "RUN_ERR_HOOK_INVALID",
      `its settings are invalid: ${describeIssues(parsed.error)}`,
    );
  }
  const hook: CompiledHook = {
    ...compiledSettings(
      { name: config.name, events: [...config.events], ...parsed.data },
      context,
      sandbox.wallMs(config.limits),
    ),
    trust: "sandboxed",
    engine: "sandbox",
    source: config.source,
    selfTimed: true,
    // The first call may wait for the sandbox process to boot: the supervisor bounds that on its own.
    startupMs: sandboxStartupMs,
    // Enforced on the host when the answer is applied: the isolate's word about its grants is never asked.
    rewrites: config.grants.filter(isRewriteGrant),
    batch: sandbox.batch,
    run: async (point, ctx, api) => {
      const [answer] = await sandbox.run(point, ctx, [hook], api.outcome);
      if (!answer) throw new Error("the sandbox did not answer");
      if (!answer.ok) throw answer.error;
      return answer.value as ReturnType<CompiledHook["run"]>;
    },
  };
  sandbox.register(hook, {
    id: `${config.name}@${config.integrity}`,
    name: config.name,
    code: config.code,
    points: hook.points,
    grants: config.grants,
    ...(config.config ? { config: config.config } : {}),
    // The hook's timeout is the sandbox's wall limit for it, so the sandbox stops it in time.
    limits: { ...config.limits, wallMs: hook.timeoutMs },
  });
  return hook;
}
