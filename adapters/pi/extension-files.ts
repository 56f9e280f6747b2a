import type { AgentExtension } from "../agent-extension.js";

/**
 * Pi loads `.pi/extensions/*\/index.ts` of a project (and `~/.pi/agent/extensions/` for every
 * project) without asking: hookyard's extension goes in `hookyard/` there, a copy of
 * integrations/pi/index.ts with the command that runs this hookyard beside it (`command.json`).
 * A copy, not an import of hookyard's package: an extension Pi cannot load it skips, unguarded.
 */
export const piExtension: AgentExtension = {
  agent: "pi",
  title: "Pi",
  projectFolder: ".pi/extensions",
  userFolder: ".pi/agent/extensions",
  name: "hookyard",
  source: "integrations/pi/index.ts",
  installNotes: [
    "Pi loads it when it next starts (or on /reload); every tool call and prompt is checked by hookyard,",
    "and refused when hookyard cannot answer. context and before_provider_request are not routed (see docs/agents/pi.md).",
  ],
};
