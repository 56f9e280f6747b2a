import { claudeInputToCtx } from "../claude/protocol/input.js";
import { emptyAnswer } from "../claude/protocol/output.js";
import { jsonNotice, parseJsonStdin } from "../json-stdin.js";
import type { AgentProfile } from "../profile.js";
import { codexProfileEvents } from "./profile-events.js";
import { codexDialect, handleCodexEvent } from "./protocol/handle.js";

/** Codex's command hooks (`.codex/hooks.json`) as a profile. */
export const codexProfile: AgentProfile = {
  ...codexProfileEvents,
  parseInput: (event, text) => parseJsonStdin(text, (input) => claudeInputToCtx(input, event, codexDialect)),
  handle: (hooks, event, input) => handleCodexEvent(hooks, event, input),
  emptyAnswer: () => {
    const { stdout, stderr, exitCode } = emptyAnswer();
    return { stdout, stderr, exitCode };
  },
  notice: (message) => jsonNotice("systemMessage", message),
};
