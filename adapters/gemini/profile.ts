import { jsonNotice, parseJsonStdin } from "../json-stdin.js";
import type { AgentProfile } from "../profile.js";
import { geminiProfileEvents } from "./profile-events.js";
import { handleGeminiEvent } from "./protocol/handle.js";
import { geminiInputToCtx } from "./protocol/input.js";
import { geminiEmptyAnswer } from "./protocol/output.js";

/** Gemini CLI's command hooks (`.gemini/settings.json`) as a profile. */
export const geminiProfile: AgentProfile = {
  ...geminiProfileEvents,
  parseInput: (event, text) => parseJsonStdin(text, (input) => geminiInputToCtx(input, event)),
  handle: (hooks, event, input) => handleGeminiEvent(hooks, event, input),
  emptyAnswer: geminiEmptyAnswer,
  notice: (message) => jsonNotice("systemMessage", message),
};
