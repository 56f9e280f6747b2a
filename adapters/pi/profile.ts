import { AgentInputError } from "../agent-input-error.js";
import { capText } from "../claude/protocol/text.js";
import type { AgentProfile } from "../profile.js";
import { piProfileEvents } from "./profile-events.js";
import { handlePiEvent } from "./protocol/handle.js";
import { piInputToCtx } from "./protocol/input.js";
import { piEmptyAnswer } from "./protocol/output.js";

/** Pi's events, as hookyard's Pi extension (integrations/pi/) sends them to `hookyard exec --profile pi`. */
export const piProfile: AgentProfile = {
  ...piProfileEvents,
  parseInput(event, text) {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new AgentInputError(`stdin is not valid JSON: ${why}`);
    }
    piInputToCtx(input, event);
    return input;
  },
  handle: (hooks, event, input) => handlePiEvent(hooks, event, input),
  emptyAnswer: piEmptyAnswer,
  notice: (message) => ({
    stdout: `${JSON.stringify({ notice: capText(message) })}\n`,
    stderr: "",
    exitCode: 0,
  }),
};
