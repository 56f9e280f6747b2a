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
  codexGroupFor,
  codexHookyardEntries,
  isCodexHookyardEntry,
} from "./codex/settings/hookyard-entries.js";
import { codexHome } from "./codex/settings/trust.js";
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
  /** The file in that folder, when it is not `settings.json` (Codex: `hooks.json`). */
  readonly file?: string;
  /** The user scope's folder, when it is not `<HOME>/<folder>` (Codex: $CODEX_HOME). */
  userFolder?(env: NodeJS.ProcessEnv): string;
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
    "and lists them as new the next time it starts. BeforeModel, AfterModel and BeforeToolSelection are not routed (see docs/agents/gemini-cli.md).",
  ],
  entries: geminiHookyardEntries,
  groupFor: geminiGroupFor,
  isHookyardEntry: isGeminiHookyardEntry,
};

const codex: AgentSettings = {
  agent: "codex",
  title: "Codex",
  folder: ".codex",
  file: "hooks.json",
  userFolder: codexHome,
  http: false,
  installNotes: [
    "Codex runs these hooks only once you trust them: start codex in this folder and review them in /hooks",
    "(until then they silently do not run; `hookyard status` says so). A project's .codex/ is read only in a",
    "project Codex trusts. A result rewrite reaches the model as the hook's PostToolUse block reason (see docs/agents/codex.md).",
  ],
  entries: codexHookyardEntries,
  groupFor: codexGroupFor,
  isHookyardEntry: isCodexHookyardEntry,
};

/** The agents install-into knows, in the order its help lists them. */
export const agentSettingsList: readonly AgentSettings[] = [claude, gemini, codex];

export function agentSettingsNamed(name: string): AgentSettings | undefined {
  return agentSettingsList.find((agent) => agent.agent === name);
}

/** `<folder>/settings.json` (or the agent's own file) in the project, or in the user's home ($HOME). */
export function agentSettingsPath(
  agent: AgentSettings,
  scope: SettingsScope,
  where: { root: string; env: NodeJS.ProcessEnv },
): string {
  const file = agent.file ?? "settings.json";
  if (scope === "user" && agent.userFolder) return join(agent.userFolder(where.env), file);
  const base = scope === "user" ? (where.env.HOME ?? homedir()) : where.root;
  return join(base, agent.folder, file);
}
