import * as z from "zod";
import { describeIssues, type LoadProblem, RunnerError } from "../../core/errors.js";
import { hookSettingsSchema } from "../../core/hook.js";
import { configFields, readConfigFile } from "../../workspace/config-file.js";
import { type ConfiguredHook, configuredHookSchema } from "../compile-hook.js";

/** Per-hook overrides, by hook name: applied to builtin, workspace and configured hooks alike. */
export const hookOverrideSchema = hookSettingsSchema
  .extend({
    enabled: z.boolean().optional(),
    /** Handed to the hook as `api.config` (read-only): an allowlist, a URL, a timeout. JSON, at most 64 KiB. */
    config: z
      .record(z.string(), z.unknown())
      .refine((value) => JSON.stringify(value).length <= 64 * 1024, "config is at most 64 KiB of JSON")
      .optional(),
  })
  .strict();
export type HookOverride = z.infer<typeof hookOverrideSchema>;

/** How community hooks run. Limits here are the defaults for every sandboxed hook. */
export const sandboxConfigSchema = z.strictObject({
  /** "inline" runs isolates in hookyard's own process: faster, but a heap exhaustion can abort it. */
  isolation: z.enum(["process", "inline"]).optional(),
  limits: z
    .strictObject({
      memoryMb: z.number().int().min(8).max(4096).optional(),
      cpuMs: z.number().int().min(1).max(600_000).optional(),
      wallMs: z.number().int().min(1).max(600_000).optional(),
    })
    .optional(),
});
export type SandboxConfig = z.infer<typeof sandboxConfigSchema>;

const configSchema = z.looseObject({
  hooks: z.record(z.string(), z.unknown()).default({}),
  rules: z.array(z.unknown()).default([]),
  sandbox: z.unknown().optional(),
});

export interface WorkspaceConfig {
  overrides: Map<string, HookOverride>;
  rules: ConfiguredHook[];
  /** Entries that were refused, each with where it is and why; the rest still load. */
  problems: LoadProblem[];
  /** Hooks whose override is invalid: they are skipped rather than run in a state nobody asked for. */
  brokenOverrides: Set<string>;
  /** The `sandbox` field; empty when absent or invalid (then the defaults apply, and it is a problem). */
  sandbox: SandboxConfig;
  /** Top-level fields this version does not know: a typo, or a newer hookyard's setting. Ignored, with a warning. */
  unknownFields: string[];
}

/**
 * The runner's fields of hookyard.json (workspace/config-file.ts reads the file; `registry`, `keys` and
 * `community` are install's). A missing file is an empty config; a file that is not a JSON object is an error.
 */
export async function readWorkspaceConfig(root: string): Promise<WorkspaceConfig> {
  const { file, data } = await readConfigFile(root);
  const top = configSchema.safeParse(data);
  if (!top.success) {
    throw new RunnerError("RUN_ERR_CONFIG_INVALID", `${file}: ${describeIssues(top.error)}`);
  }
  const config: WorkspaceConfig = {
    overrides: new Map(),
    rules: [],
    problems: [],
    brokenOverrides: new Set(),
    sandbox: {},
    unknownFields: Object.keys(top.data).filter((key) => !configFields.includes(key)),
  };
  const fix = `fix ${file}`;
  // The entry itself is what failed, so what it says of onError and events is read leniently.
  const problem = (name: string, message: string, entry: unknown) =>
    config.problems.push({ name, code: "RUN_ERR_CONFIG_INVALID", message, file, fix, ...declared(entry) });
  for (const [name, value] of Object.entries(top.data.hooks)) {
    const parsed = hookOverrideSchema.safeParse(value);
    if (parsed.success) config.overrides.set(name, parsed.data);
    else {
      config.brokenOverrides.add(name);
      problem(name, describeIssues(parsed.error, `hooks.${name}`), value);
    }
  }
  if (top.data.sandbox !== undefined) {
    const parsed = sandboxConfigSchema.safeParse(top.data.sandbox);
    if (parsed.success) config.sandbox = parsed.data;
    else
      config.problems.push({
        name: "sandbox",
        code: "RUN_ERR_CONFIG_INVALID",
        message: `${describeIssues(parsed.error, "sandbox")} (the defaults apply)`,
        file,
        fix,
        setting: true,
      });
  }
  const seen = new Set<string>();
  top.data.rules.forEach((value, index) => {
    const parsed = configuredHookSchema.safeParse(value);
    const name = (value as { name?: unknown } | null)?.name;
    const label = typeof name === "string" ? name : `rules[${index}]`;
    if (!parsed.success) {
      problem(label, describeIssues(parsed.error, `rules[${index}]`), value);
    } else if (seen.has(parsed.data.name)) {
      problem(label, `rules[${index}]: a hook named "${label}" is already defined`, value);
    } else {
      seen.add(parsed.data.name);
      config.rules.push(parsed.data);
    }
  });
  return config;
}

/** An entry's `onError` and `events`, when they are there to read. */
function declared(entry: unknown): Pick<LoadProblem, "onError" | "points"> {
  if (typeof entry !== "object" || entry === null) return {};
  const { onError, events } = entry as { onError?: unknown; events?: unknown };
  return {
    ...(onError !== undefined ? { onError } : {}),
    ...(Array.isArray(events) ? { points: events.filter((e) => typeof e === "string") } : {}),
  };
}
