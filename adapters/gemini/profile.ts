import { AgentInputError } from "../agent-input-error.js";
import { capText } from "../claude/protocol/text.js";
import type { AgentProfile } from "../profile.js";
import { geminiProfileEvents } from "./profile-events.js";
import { handleGeminiEvent } from "./protocol/handle.js";
import { geminiInputToCtx } from "./protocol/input.js";
import { geminiEmptyAnswer } from "./protocol/output.js";

/** Gemini CLI's command hooks (`.gemini/settings.json`) as a profile. */
export const geminiProfile: AgentProfile = {
  ...geminiProfileEvents,
  parseInput(event, text) {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new AgentInputError(`stdin is not valid JSON: ${why}`);
    }
    geminiInputToCtx(input, event);
    return input;
  },
  handle: (hooks, event, input) => handleGeminiEvent(hooks, event, input),
  emptyAnswer: geminiEmptyAnswer,
  notice: (message) => ({
    stdout: `${JSON.stringify({ systemMessage: capText(message) })}\n`,
    stderr: "",
    exitCode: 0,
  }),
};
