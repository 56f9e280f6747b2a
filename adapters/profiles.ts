import { claudeProfile } from "./claude/profile.js";
import { codexProfile } from "./codex/profile.js";
import { geminiProfile } from "./gemini/profile.js";
import { opencodeProfile } from "./opencode/profile.js";
import { piProfile } from "./pi/profile.js";
import type { AgentProfile } from "./profile.js";

/** Every profile, by name (the light part of each, for the exec client, is `profile-events.ts`). */
const byName: Readonly<Record<string, AgentProfile>> = {
  claude: claudeProfile,
  gemini: geminiProfile,
  codex: codexProfile,
  pi: piProfile,
  opencode: opencodeProfile,
};

export function profileNamed(name: string): AgentProfile | undefined {
  return Object.hasOwn(byName, name) ? byName[name] : undefined;
}
