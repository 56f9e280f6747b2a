import { claudeProfileEvents } from "./claude/profile-events.js";
import { codexProfileEvents } from "./codex/profile-events.js";
import { geminiProfileEvents } from "./gemini/profile-events.js";
import { opencodeProfileEvents } from "./opencode/profile-events.js";
import { piProfileEvents } from "./pi/profile-events.js";
import type { ProfileEvents } from "./profile.js";

/**
 * Every profile's light part, by name: what the exec client reads (it is bundled into one file
 * with the client, so nothing heavy may be imported here; the full profiles are `profiles.ts`).
 */
const byName: Readonly<Record<string, ProfileEvents>> = {
  claude: claudeProfileEvents,
  gemini: geminiProfileEvents,
  codex: codexProfileEvents,
  pi: piProfileEvents,
  opencode: opencodeProfileEvents,
};

/** The profiles `exec --profile` accepts, in the order its help lists them. */
export const profileNames = Object.keys(byName);

export function profileEvents(name: string): ProfileEvents | undefined {
  return Object.hasOwn(byName, name) ? byName[name] : undefined;
}
