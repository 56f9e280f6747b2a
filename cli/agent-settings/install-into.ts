import { join } from "node:path";
import { agentExtensionList } from "../../adapters/agent-extension.js";
import { agentPluginFileList } from "../../adapters/agent-plugin-file.js";
import {
  type AgentSettings,
  agentSettingsList,
  agentSettingsNamed,
  agentSettingsPath,
} from "../../adapters/agent-settings.js";
import { httpUnsupportedEvents, type Route } from "../../adapters/claude/settings/hookyard-entries.js";
import { unifiedDiff } from "../../adapters/claude/settings/line-diff.js";
import {
  formatSettings,
  readSettings,
  type SettingsFile,
  type SettingsScope,
  writeSettings,
} from "../../adapters/claude/settings/settings-file.js";
import { withHookyard, withoutHookyard } from "../../adapters/claude/settings/settings-merge.js";
import { shellWord } from "../../adapters/claude/settings/shell-words.js";
import { serveTokenEnv, serveTokenFile } from "../../adapters/serve/defaults.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import type { CliContext } from "../command.js";
import { CliError, exitCodes } from "../errors.js";
import { packageRoot } from "../package-root.js";

export interface SettingsOptions {
  /** The agent whose settings file is written (`checkAgent`); Claude Code's when unset. */
  agent?: AgentSettings;
  scope: SettingsScope;
  dryRun: boolean;
}

/** Where `hookyard serve` listens for that agent's http hooks. */
export interface HttpTarget {
  port: number;
}

/** The agent install-into and uninstall-from were named, of those they know. */
export function checkAgent(agent: string | undefined): AgentSettings {
  const known = agent === undefined ? undefined : agentSettingsNamed(agent);
  if (known === undefined) {
    const names = [...agentSettingsList, ...agentExtensionList, ...agentPluginFileList]
      .map((a) => `${a.agent} (${a.title})`)
      .join(", ");
    throw new CliError(
      "CLI_ERR_USAGE",
      `unknown agent "${agent ?? ""}": hookyard knows ${names}`,
      exitCodes.usage,
    );
  }
  return known;
}

/** --project and --user pick one file; neither is --project. */
export function scopeOf(options: Record<string, unknown>): SettingsScope {
  if (options.project && options.user) {
    throw new CliError("CLI_ERR_USAGE", "--project and --user exclude each other: pick one", exitCodes.usage);
  }
  return options.user ? "user" : "project";
}

/**
 * The command that agent runs for each event. The absolute path of node and of this hookyard's bin,
 * so it works from any folder, without PATH (that agent may start with another PATH than your
 * shell's), and runs the hookyard that was installed into it. No node flags: exec is a thin client
 * of the workspace's daemon, which starts node with the flags isolates need.
 */
export function execCommand(): string {
  return [process.execPath, join(packageRoot(), "bin", "hookyard.js")].map(shellWord).join(" ");
}

/** Routes every mapped event of that agent to hookyard, in its settings file. */
export async function installInto(
  context: CliContext,
  options: SettingsOptions & { http?: HttpTarget },
): Promise<number> {
  const agent = options.agent ?? claudeSettings();
  if (options.http && !agent.http) {
    throw new CliError(
      "CLI_ERR_USAGE",
      `${agent.title} runs only command hooks: install-into ${agent.agent} has no --http (its events run \`hookyard exec\`, which the workspace's daemon answers)`,
      exitCodes.usage,
    );
  }
  const settings = await readSettings(await fileFor(context, agent, options.scope));
  const route: Route = options.http
    ? { kind: "http", baseUrl: `http://127.0.0.1:${options.http.port}`, exec: execCommand() }
    : { kind: "command", exec: execCommand() };
  const { data, report } = withHookyard(settings.data, agent.entries(route), agent);
  const say = (line: string) => context.stdout.write(`${line}\n`);
  if (report.added.length + report.replaced.length === 0) {
    say(
      `hookyard is already in ${settings.file} for all ${report.unchanged.length} events: nothing to change`,
    );
    return exitCodes.ok;
  }
  await apply(context, settings, data, options.dryRun);
  const [add, update] = options.dryRun ? ["would add", "would update"] : ["added", "updated"];
  if (report.added.length > 0) say(`${add} hookyard for ${list(report.added)}`);
  if (report.replaced.length > 0) say(`${update} hookyard for ${list(report.replaced)}`);
  say(`${options.dryRun ? "dry run: nothing written to" : "written to"} ${settings.file}`);
  for (const note of agent.installNotes) say(note);
  if (options.http) {
    say(
      `Claude Code will POST each event to http://127.0.0.1:${options.http.port}/claude/<Event>: start the daemon`,
    );
    say(
      `with \`hookyard serve --port ${options.http.port}\` and set ${serveTokenEnv} to its token (${serveTokenFile},`,
    );
    say("or the file given to --token-file) in the environment Claude Code starts from.");
    say(
      `${[...httpUnsupportedEvents].join(", ")} runs \`hookyard exec\` instead: Claude Code calls no http hook there.`,
    );
    say(
      "warning: Claude Code itself fails open on http hooks: while hookyard serve is down (or not reachable), every event goes through unguarded, and no hook runs. A missing or wrong token is refused at PreToolUse and UserPromptSubmit by a running serve, but only a running serve can refuse. Without --http, hookyard exec refuses those events when no hook could run.",
    );
  }
  return exitCodes.ok;
}

/** Removes exactly the entries install-into added, and the groups they leave empty. */
export async function uninstallFrom(context: CliContext, options: SettingsOptions): Promise<number> {
  const agent = options.agent ?? claudeSettings();
  const settings = await readSettings(await fileFor(context, agent, options.scope));
  const { data, removed } = withoutHookyard(settings.data, agent);
  const say = (line: string) => context.stdout.write(`${line}\n`);
  if (removed.length === 0) {
    say(`no hookyard entries in ${settings.file}: nothing to change`);
    return exitCodes.ok;
  }
  await apply(context, settings, data, options.dryRun);
  say(`${options.dryRun ? "would remove" : "removed"} hookyard from ${list(removed)}`);
  say(`${options.dryRun ? "dry run: nothing written to" : "written to"} ${settings.file}`);
  return exitCodes.ok;
}

async function fileFor(context: CliContext, agent: AgentSettings, scope: SettingsScope): Promise<string> {
  return agentSettingsPath(agent, scope, { root: await findWorkspaceRoot(context.cwd), env: context.env });
}

function claudeSettings(): AgentSettings {
  return agentSettingsNamed("claude") as AgentSettings;
}

/** Writes the new settings, or (dry run) prints the diff and writes nothing. */
async function apply(
  context: CliContext,
  settings: SettingsFile,
  data: Record<string, unknown>,
  dryRun: boolean,
): Promise<void> {
  const text = formatSettings(settings, data);
  if (dryRun) {
    const from = settings.existed ? settings.file : "/dev/null";
    context.stdout.write(unifiedDiff(settings.text, text, { from, to: settings.file }));
    return;
  }
  if (text !== settings.text) await writeSettings(settings, text);
}

function list(events: string[]): string {
  return `${events.length} event${events.length === 1 ? "" : "s"} (${events.join(", ")})`;
}
