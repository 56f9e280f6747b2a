import { homedir } from "node:os";
import { join } from "node:path";
import type { SettingsScope } from "./claude/settings/settings-file.js";
import { piExtension } from "./pi/extension-files.js";

/**
 * An agent with no hook settings, only in-process extensions (Pi): `install-into` routes its events
 * to hookyard by putting hookyard's extension in the folder that agent loads extensions from. What
 * differs per agent is here; writing, the undo and the diff are `extension-install.ts`.
 */
export interface AgentExtension {
  /** The name `install-into <agent>` takes, and the profile the extension runs. */
  readonly agent: string;
  /** The agent's own name, for messages: "Pi". */
  readonly title: string;
  /** Under the project, and under HOME (`--user`), the folder it loads extensions from. */
  readonly projectFolder: string;
  readonly userFolder: string;
  /** The folder of hookyard's extension in it. */
  readonly name: string;
  /** The extension's source in hookyard's package (copied as is), relative to the package root. */
  readonly source: string;
  /** What install-into says after writing. */
  readonly installNotes: readonly string[];
}

/** The agents whose extension install-into writes, in the order its help lists them. */
export const agentExtensionList: readonly AgentExtension[] = [piExtension];

export function agentExtensionNamed(name: string | undefined): AgentExtension | undefined {
  return agentExtensionList.find((agent) => agent.agent === name);
}

/** Where the extension's folder is, and the base its made folders are named from. */
export function agentExtensionPlace(
  agent: AgentExtension,
  scope: SettingsScope,
  where: { root: string; env: NodeJS.ProcessEnv },
): { base: string; folder: string } {
  const base = scope === "user" ? (where.env.HOME ?? homedir()) : where.root;
  const parent = scope === "user" ? agent.userFolder : agent.projectFolder;
  return { base, folder: join(base, parent, agent.name) };
}
