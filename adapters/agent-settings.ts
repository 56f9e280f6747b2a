import { homedir } from "node:os";
import { join } from "node:path";
import {
  hookyardEntries as claudeEntries,
  groupFor as claudeGroupFor,
  isHookyardEntry as claudeIsHookyardEntry,
  type HookEntry,
  type Route,
} from "./claude/settings/hookyard-entries.js";
import type { SettingsScope } from "./claude/settings/settings-file.js";
import {
  geminiGroupFor,
  geminiHookyardEntries,
  isGeminiHookyardEntry,
} from "./gemini/settings/hookyard-entries.js";

/**
 * One agent's settings file as `install-into` and `uninstall-from` write it: where it is, the
 * entries that route its events to hookyard, how a new one is grouped, and how ours are found
 * again. Both agents keep their hooks as `{ Event: [ { matcher?, hooks: [ … ] } ] }`, so reading,
 * merging, the diff and the undo (`claude/settings/`) are shared; only these differ.
 */
export interface AgentSettings {
  /** The name `install-into <agent>` takes, and the profile its entries run. */
  readonly agent: string;
  /** The agent's own name, for messages: "Claude Code". */
  readonly title: string;
  /** The folder under the project (or HOME) that holds its `settings.json`: ".claude". */
  readonly folder: string;
  /** Whether it has http hooks (`--http`). */
  readonly http: boolean;
  /** What install-into says after writing, about how that agent runs the entries. */
  readonly installNotes: readonly string[];
  entries(route: Route): Array<{ event: string; hook: HookEntry }>;
  groupFor(event: string, hook: HookEntry): Record<string, unknown>;
  isHookyardEntry(hook: unknown): boolean;
}

const claude: AgentSettings = {
  agent: "claude",
  title: "Claude Code",
  folder: ".claude",
  http: true,
  installNotes: [],
  entries: claudeEntries,
  groupFor: claudeGroupFor,
  isHookyardEntry: claudeIsHookyardEntry,
};

const gemini: AgentSettings = {
  agent: "gemini",
  title: "Gemini CLI",
  folder: ".gemini",
  http: false,
  installNotes: [
    "Gemini CLI runs a project's hooks only in a folder it trusts (its folder trust, or GEMINI_CLI_TRUST_WORKSPACE=true),",
    "and lists them as new the next time it starts. BeforeModel, AfterModel and BeforeToolSelection are not routed (see docs/gemini-cli.md).",
  ],
  entries: geminiHookyardEntries,
  groupFor: geminiGroupFor,
  isHookyardEntry: isGeminiHookyardEntry,
};

/** The agents install-into knows, in the order its help lists them. */
export const agentSettingsList: readonly AgentSettings[] = [claude, gemini];

export function agentSettingsNamed(name: string): AgentSettings | undefined {
  return agentSettingsList.find((agent) => agent.agent === name);
}

/** `<folder>/settings.json` in the project, or in the user's home ($HOME). */
export function agentSettingsPath(
  agent: AgentSettings,
  scope: SettingsScope,
  where: { root: string; env: NodeJS.ProcessEnv },
): string {
  const base = scope === "user" ? (where.env.HOME ?? homedir()) : where.root;
  return join(base, agent.folder, "settings.json");
}
