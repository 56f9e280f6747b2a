import { homedir } from "node:os";
import { join } from "node:path";
import { AdapterError } from "../../errors.js";

/**
 * The file `hookyard install-into opencode` writes: hookyard's plugin (integrations/opencode/
 * hookyard.ts) as it ships, with the command that runs this hookyard written in, and a first line
 * that says whose it is. OpenCode 1.18 loads every `{plugin,plugins}/*.{ts,js}` of a project's
 * `.opencode/` (and of its config folder, `~/.config/opencode/`) at start.
 */
export const opencodePluginMarker =
  "// added by hookyard install-into opencode: `hookyard uninstall-from opencode` removes this file";

/** The line of the shipped plugin that install-into replaces with the command it runs hookyard with. */
const commandLine = /^const installedCommand: readonly string\[\] = \[.*\];$/m;

/** The plugin's source with `command` written in, marked as ours. */
export function renderOpencodePlugin(source: string, command: readonly string[]): string {
  if (!commandLine.test(source)) {
    throw new AdapterError(
      "CLI_ERR_AGENT_PLUGIN_FILE",
      "hookyard's OpenCode plugin has no installedCommand line to write the command in: this hookyard's files are damaged; reinstall it",
    );
  }
  const line = `const installedCommand: readonly string[] = ${JSON.stringify(command)};`;
  return `${opencodePluginMarker}\n${source.replace(commandLine, () => line)}`;
}

/** Whether a file's text is one install-into wrote (and uninstall-from may remove). */
export function isOpencodePluginFile(text: string): boolean {
  return text.startsWith(`${opencodePluginMarker}\n`);
}

/**
 * Where the plugin goes, and the folders install-into may create on the way (outermost first):
 * the project's `.opencode/plugins/hookyard.ts`, or with --user the config folder's
 * (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`).
 */
export function opencodePluginPath(
  scope: "project" | "user",
  where: { root: string; env: NodeJS.ProcessEnv },
): { file: string; folders: string[] } {
  const base =
    scope === "user"
      ? join(where.env.XDG_CONFIG_HOME || join(where.env.HOME ?? homedir(), ".config"), "opencode")
      : join(where.root, ".opencode");
  return { file: join(base, "plugins", "hookyard.ts"), folders: [base, join(base, "plugins")] };
}
