import { jsonNotice, parseJsonStdin } from "../json-stdin.js";
import type { AgentProfile } from "../profile.js";
import { claudeProfileEvents } from "./profile-events.js";
import { handleClaudeEvent } from "./protocol/handle.js";
import { claudeInputToCtx } from "./protocol/input.js";
import { type ClaudeAnswer, emptyAnswer } from "./protocol/output.js";

const plain = (answer: ClaudeAnswer) => ({
  stdout: answer.stdout,
  stderr: answer.stderr,
  exitCode: answer.exitCode,
});

/** Claude Code's command hooks as a profile (Codex's, which read the same JSON, are adapters/codex/). */
export const claudeProfile: AgentProfile = {
  ...claudeProfileEvents,
  parseInput: (event, text) => parseJsonStdin(text, (input) => claudeInputToCtx(input, event)),
  handle: async (hooks, event, input) => plain(await handleClaudeEvent(hooks, event, input)),
  emptyAnswer: () => plain(emptyAnswer()),
  notice: (message) => jsonNotice("systemMessage", message),
};
