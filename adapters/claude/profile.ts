import { AgentInputError } from "../agent-input-error.js";
import type { AgentProfile } from "../profile.js";
import { claudeProfileEvents } from "./profile-events.js";
import { handleClaudeEvent } from "./protocol/handle.js";
import { claudeInputToCtx } from "./protocol/input.js";
import { type ClaudeAnswer, emptyAnswer } from "./protocol/output.js";
import { capText } from "./protocol/text.js";

const plain = (answer: ClaudeAnswer) => ({
  stdout: answer.stdout,
  stderr: answer.stderr,
  exitCode: answer.exitCode,
});

/** Claude Code's command hooks as a profile (Codex's, which read the same JSON, are adapters/codex/). */
export const claudeProfile: AgentProfile = {
  ...claudeProfileEvents,
  parseInput(event, text) {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new AgentInputError(`stdin is not valid JSON: ${why}`);
    }
    claudeInputToCtx(input, event);
    return input;
  },
  handle: async (hooks, event, input) => plain(await handleClaudeEvent(hooks, event, input)),
  emptyAnswer: () => plain(emptyAnswer()),
  notice: (message) => ({
    stdout: `${JSON.stringify({ systemMessage: capText(message) })}\n`,
    stderr: "",
    exitCode: 0,
  }),
};
