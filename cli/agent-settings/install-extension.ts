import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type AgentExtension, agentExtensionPlace } from "../../adapters/agent-extension.js";
import { unifiedDiff } from "../../adapters/claude/settings/line-diff.js";
import type { SettingsScope } from "../../adapters/claude/settings/settings-file.js";
import {
  applyExtensionInstall,
  applyExtensionUninstall,
  type ExtensionPlan,
  planExtensionInstall,
  planExtensionUninstall,
} from "../../adapters/extension-install.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import type { CliContext } from "../command.js";
import { exitCodes } from "../errors.js";
import { packageRoot } from "../package-root.js";

export interface ExtensionOptions {
  agent: AgentExtension;
  scope: SettingsScope;
  dryRun: boolean;
}

/** The command the extension runs: this node and this hookyard's bin, absolute (as the settings entries' are). */
function hookyardCommand(): string[] {
  return [process.execPath, join(packageRoot(), "bin", "hookyard.js")];
}

/** Puts hookyard's extension where that agent loads extensions from. */
export async function installExtensionInto(context: CliContext, options: ExtensionOptions): Promise<number> {
  const { agent } = options;
  const place = await placeOf(context, options);
  const source = await readFile(join(packageRoot(), agent.source), "utf8");
  const plan = await planExtensionInstall(agent, place, source, hookyardCommand());
  const say = (line: string) => context.stdout.write(`${line}\n`);
  if (plan.changes.length === 0) {
    say(`hookyard's ${agent.title} extension is already in ${plan.folder}: nothing to change`);
    return exitCodes.ok;
  }
  if (options.dryRun) showDiff(context, plan);
  else await applyExtensionInstall(plan);
  const verb = options.dryRun ? "would write" : "wrote";
  say(`${verb} hookyard's ${agent.title} extension: ${plan.changes.map((c) => c.file).join(", ")}`);
  if (options.dryRun) say("dry run: nothing written");
  for (const note of agent.installNotes) say(note);
  return exitCodes.ok;
}

/** Takes out exactly what installExtensionInto wrote, and the folders it made once they are empty. */
export async function uninstallExtensionFrom(
  context: CliContext,
  options: ExtensionOptions,
): Promise<number> {
  const { agent } = options;
  const place = await placeOf(context, options);
  const source = await readFile(join(packageRoot(), agent.source), "utf8");
  const plan = await planExtensionUninstall(agent, place, source);
  const say = (line: string) => context.stdout.write(`${line}\n`);
  if (plan.changes.length === 0) {
    say(`no hookyard extension in ${plan.folder}: nothing to change`);
    return exitCodes.ok;
  }
  if (options.dryRun) showDiff(context, plan);
  else await applyExtensionUninstall(plan);
  say(`${options.dryRun ? "would remove" : "removed"} ${plan.changes.map((c) => c.file).join(", ")}`);
  if (options.dryRun) say("dry run: nothing written");
  return exitCodes.ok;
}

async function placeOf(context: CliContext, options: ExtensionOptions) {
  return agentExtensionPlace(options.agent, options.scope, {
    root: await findWorkspaceRoot(context.cwd),
    env: context.env,
  });
}

function showDiff(context: CliContext, plan: ExtensionPlan): void {
  for (const change of plan.changes) {
    context.stdout.write(
      unifiedDiff(change.before ?? "", change.after ?? "", {
        from: change.before === null ? "/dev/null" : change.file,
        to: change.after === null ? "/dev/null" : change.file,
      }),
    );
  }
}
