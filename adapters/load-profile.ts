import type { AgentProfile } from "./profile.js";

const loaders: Readonly<Record<string, () => Promise<AgentProfile>>> = {
  claude: async () => (await import("./claude/profile.js")).claudeProfile,
  gemini: async () => (await import("./gemini/profile.js")).geminiProfile,
  codex: async () => (await import("./codex/profile.js")).codexProfile,
  pi: async () => (await import("./pi/profile.js")).piProfile,
  opencode: async () => (await import("./opencode/profile.js")).opencodeProfile,
};

/**
 * profiles.ts's profileNamed, loading only that profile: for `exec` in the agent's process, where the other four
 * agents' protocols (their zod schemas, built as they load) would cost every first event.
 */
export async function loadProfile(name: string): Promise<AgentProfile | undefined> {
  return Object.hasOwn(loaders, name) ? (loaders[name] as () => Promise<AgentProfile>)() : undefined;
}
