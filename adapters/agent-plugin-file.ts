import {
  isOpencodePluginFile,
  opencodePluginPath,
  renderOpencodePlugin,
} from "./opencode/plugin/plugin-file.js";

/**
 * An agent that runs hookyard through a plugin file of its own, not a settings entry
 * (`agent-settings.ts`): `install-into` writes one file (hookyard's plugin, shipped under
 * `integrations/`, with the command that runs hookyard written in), `uninstall-from` deletes it.
 * The file is marked as ours: a file that is not stays as it is.
 */
export interface AgentPluginFile {
  /** The name `install-into <agent>` takes. */
  readonly agent: string;
  /** The agent's own name, for messages: "OpenCode". */
  readonly title: string;
  /** The plugin's source, relative to hookyard's package root. */
  readonly source: string;
  /** What install-into says after writing. */
  readonly installNotes: readonly string[];
  path(
    scope: "project" | "user",
    where: { root: string; env: NodeJS.ProcessEnv },
  ): {
    file: string;
    /** The folders on the way, outermost first: made by install, removed by uninstall when left empty. */
    folders: string[];
  };
  render(source: string, command: readonly string[]): string;
  isOurs(text: string): boolean;
}

const opencode: AgentPluginFile = {
  agent: "opencode",
  title: "OpenCode",
  source: "integrations/opencode/hookyard.ts",
  installNotes: [
    "OpenCode loads it when it next starts. At tool.execute.before and chat.message a hookyard that cannot",
    "answer refuses the call or the prompt; run install-into opencode again after moving node or hookyard.",
  ],
  path: opencodePluginPath,
  render: renderOpencodePlugin,
  isOurs: isOpencodePluginFile,
};

/** The plugin-file agents install-into knows. */
export const agentPluginFileList: readonly AgentPluginFile[] = [opencode];

export function agentPluginFileNamed(name: string | undefined): AgentPluginFile | undefined {
  return agentPluginFileList.find((agent) => agent.agent === name);
}
