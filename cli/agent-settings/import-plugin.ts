import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { unifiedDiff } from "../../adapters/claude/settings/line-diff.js";
import { type ImportedHook, pluginHooks } from "../../adapters/claude/settings/plugin-hooks.js";
import { readWorkspaceConfigFile } from "../../client/workspace-config.js";
import { describeIssues, RunnerError } from "../../core/errors.js";
import { configuredHookSchema } from "../../runner/compile-hook.js";
import { formatConfigFile, writeConfigFile } from "../../workspace/config-file.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import type { CliContext } from "../command.js";
import { CliError, exitCodes } from "../errors.js";

export interface ImportOptions {
  dryRun: boolean;
  skipUnsupported: boolean;
  /** The model a plugin's prompt and agent hooks call (`openai:<model>`, `scripted:<file>`). */
  model?: string;
  baseUrl?: string;
}

/**
 * Adds a plugin's command hooks to hookyard.json as claude-profile hooks (written atomically).
 * A hook already there (same content, whatever its name) is skipped; a hook hookyard cannot run
 * stops the import, unless told to skip those; a name in use by another hook stops it too.
 */
export async function importClaudePlugin(
  context: CliContext,
  dir: string,
  options: ImportOptions,
): Promise<number> {
  if (options.baseUrl !== undefined && options.model === undefined) {
    throw new CliError("CLI_ERR_USAGE", "--base-url needs --model openai:<model>", exitCodes.usage);
  }
  if (options.model !== undefined && !/^(openai|scripted):./.test(options.model)) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `--model ${options.model} is not understood: use openai:<model> or scripted:<file.json>`,
      exitCodes.usage,
    );
  }
  const model =
    options.model === undefined
      ? undefined
      : { model: options.model, ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }) };
  const plugin = await pluginHooks(resolve(context.cwd, dir), model);
  if (plugin.unsupported.length > 0 && !options.skipUnsupported) {
    const lines = plugin.unsupported.map((u) => `  ${u.where}: ${u.why}`).join("\n");
    throw new CliError(
      "CLI_ERR_PLUGIN_INVALID",
      `plugin "${plugin.plugin}" has hooks hookyard cannot run, so nothing was imported (--skip-unsupported imports the rest):\n${lines}`,
    );
  }
  for (const hook of plugin.entries) {
    const parsed = configuredHookSchema.safeParse(hook);
    if (!parsed.success) {
      throw new CliError(
        "CLI_ERR_PLUGIN_INVALID",
        `plugin "${plugin.plugin}": the hook that would be ${hook.name} cannot be a hookyard.json entry (${describeIssues(parsed.error)}); nothing was imported`,
      );
    }
  }

  const root = await findWorkspaceRoot(context.cwd);
  const config = await readWorkspaceConfigFile(root);
  const existing = config.data.rules ?? [];
  if (!Array.isArray(existing)) {
    throw new RunnerError("RUN_ERR_CONFIG_INVALID", `${config.file}: "rules" must be an array`);
  }
  const added: ImportedHook[] = [];
  const skipped: Array<{ hook: ImportedHook; as: string }> = [];
  for (const hook of plugin.entries) {
    const twin = [...existing, ...added].find((other) => sameHook(other, hook));
    if (twin) {
      skipped.push({ hook, as: String((twin as { name?: unknown }).name) });
      continue;
    }
    if (existing.some((other) => (other as { name?: unknown } | null)?.name === hook.name)) {
      throw new CliError(
        "CLI_ERR_PLUGIN_INVALID",
        `${config.file} already has a hook named "${hook.name}" that runs something else (the plugin changed since it was imported?): remove the hooks named ${plugin.plugin}.* and import again; nothing was imported`,
      );
    }
    added.push(hook);
  }

  const say = (line: string) => context.stdout.write(`${line}\n`);
  for (const u of options.skipUnsupported ? plugin.unsupported : []) {
    context.stderr.write(`hookyard: warning: not imported: ${u.where}: ${u.why}\n`);
  }
  for (const { hook, as } of skipped) say(`already in hookyard.json: ${hook.name} (as ${as})`);
  if (added.length === 0) {
    say(`nothing to import from plugin "${plugin.plugin}"`);
    return exitCodes.ok;
  }
  config.data.rules = [...existing, ...added];
  if (options.dryRun) {
    const before = config.existed ? await readFile(config.file, "utf8") : "";
    const from = config.existed ? config.file : "/dev/null";
    context.stdout.write(unifiedDiff(before, formatConfigFile(config.data), { from, to: config.file }));
  } else {
    await writeConfigFile(config);
  }
  const verb = options.dryRun ? "would import" : "imported";
  say(
    `${verb} ${added.length} hook${added.length === 1 ? "" : "s"} from plugin "${plugin.plugin}" (${plugin.root}):`,
  );
  for (const hook of added) say(`  ${hook.name}  ${describe(hook)}`);
  say(`${options.dryRun ? "dry run: nothing written to" : "written to"} ${config.file}`);
  return exitCodes.ok;
}

/** The same hook: everything but the name is equal. */
function sameHook(other: unknown, hook: ImportedHook): boolean {
  if (typeof other !== "object" || other === null) return false;
  const { name: _a, ...theirs } = other as Record<string, unknown>;
  const { name: _b, ...ours } = hook;
  return isDeepStrictEqual(theirs, ours);
}

function describe(hook: ImportedHook): string {
  const matcher = hook.matcher === undefined ? "" : ` matcher ${JSON.stringify(hook.matcher)}`;
  const runs =
    hook.engine === "command"
      ? String(hook.command)
      : `${String(hook.engine)} on ${String(hook.model)}: ${JSON.stringify(String(hook.prompt ?? hook.instructions).slice(0, 60))}`;
  return `${(hook.events as string[]).join(", ")}${matcher}: ${runs}`;
}
