import { jsonNotice, parseJsonStdin } from "../json-stdin.js";
import type { AgentProfile } from "../profile.js";
import { piProfileEvents } from "./profile-events.js";
import { handlePiEvent } from "./protocol/handle.js";
import { piInputToCtx } from "./protocol/input.js";
import { piEmptyAnswer } from "./protocol/output.js";

/** Pi's events, as hookyard's Pi extension (integrations/pi/) sends them to `hookyard exec --profile pi`. */
export const piProfile: AgentProfile = {
  ...piProfileEvents,
  parseInput: (event, text) => parseJsonStdin(text, (input) => piInputToCtx(input, event)),
  handle: (hooks, event, input) => handlePiEvent(hooks, event, input),
  emptyAnswer: piEmptyAnswer,
  notice: (message) => jsonNotice("notice", message),
};
