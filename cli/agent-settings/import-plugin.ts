import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { unifiedDiff } from "../../adapters/claude/settings/line-diff.js";
import { type ImportedRule, pluginRules } from "../../adapters/claude/settings/plugin-hooks.js";
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
 * Adds a plugin's command hooks to hookyard.json as claude-profile rules (written atomically).
 * A rule already there (same content, whatever its name) is skipped; a hook hookyard cannot run
 * stops the import, unless told to skip those; a name in use by another rule stops it too.
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
  const plugin = await pluginRules(resolve(context.cwd, dir), model);
  if (plugin.unsupported.length > 0 && !options.skipUnsupported) {
    const lines = plugin.unsupported.map((u) => `  ${u.where}: ${u.why}`).join("\n");
    throw new CliError(
      "CLI_ERR_PLUGIN_INVALID",
      `plugin "${plugin.plugin}" has hooks hookyard cannot run, so nothing was imported (--skip-unsupported imports the rest):\n${lines}`,
    );
  }
  for (const rule of plugin.rules) {
    const parsed = configuredHookSchema.safeParse(rule);
    if (!parsed.success) {
      throw new CliError(
        "CLI_ERR_PLUGIN_INVALID",
        `plugin "${plugin.plugin}": the hook that would be ${rule.name} cannot be a rule (${describeIssues(parsed.error)}); nothing was imported`,
      );
    }
  }

  const root = await findWorkspaceRoot(context.cwd);
  const config = await readWorkspaceConfigFile(root);
  const existing = config.data.rules ?? [];
  if (!Array.isArray(existing)) {
    throw new RunnerError("RUN_ERR_CONFIG_INVALID", `${config.file}: "rules" must be an array`);
  }
  const added: ImportedRule[] = [];
  const skipped: Array<{ rule: ImportedRule; as: string }> = [];
  for (const rule of plugin.rules) {
    const twin = [...existing, ...added].find((other) => sameRule(other, rule));
    if (twin) {
      skipped.push({ rule, as: String((twin as { name?: unknown }).name) });
      continue;
    }
    if (existing.some((other) => (other as { name?: unknown } | null)?.name === rule.name)) {
      throw new CliError(
        "CLI_ERR_PLUGIN_INVALID",
        `${config.file} already has a rule named "${rule.name}" that runs something else (the plugin changed since it was imported?): remove the rules named ${plugin.plugin}.* and import again; nothing was imported`,
      );
    }
    added.push(rule);
  }

  const say = (line: string) => context.stdout.write(`${line}\n`);
  for (const u of options.skipUnsupported ? plugin.unsupported : []) {
    context.stderr.write(`hookyard: warning: not imported: ${u.where}: ${u.why}\n`);
  }
  for (const { rule, as } of skipped) say(`already in hookyard.json: ${rule.name} (as ${as})`);
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
    `${verb} ${added.length} rule${added.length === 1 ? "" : "s"} from plugin "${plugin.plugin}" (${plugin.root}):`,
  );
  for (const rule of added) say(`  ${rule.name}  ${describe(rule)}`);
  say(`${options.dryRun ? "dry run: nothing written to" : "written to"} ${config.file}`);
  return exitCodes.ok;
}

/** The same hook: everything but the name is equal. */
function sameRule(other: unknown, rule: ImportedRule): boolean {
  if (typeof other !== "object" || other === null) return false;
  const { name: _a, ...theirs } = other as Record<string, unknown>;
  const { name: _b, ...ours } = rule;
  return isDeepStrictEqual(theirs, ours);
}

function describe(rule: ImportedRule): string {
  const matcher = rule.matcher === undefined ? "" : ` matcher ${JSON.stringify(rule.matcher)}`;
  const runs =
    rule.engine === "command"
      ? String(rule.command)
      : `${String(rule.engine)} on ${String(rule.model)}: ${JSON.stringify(String(rule.prompt ?? rule.instructions).slice(0, 60))}`;
  return `${(rule.events as string[]).join(", ")}${matcher}: ${runs}`;
}
