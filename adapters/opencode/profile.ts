import { AgentInputError } from "../agent-input-error.js";
import { capText } from "../claude/protocol/text.js";
import type { AgentProfile } from "../profile.js";
import { opencodeProfileEvents } from "./profile-events.js";
import { opencodeInputToCtx } from "./protocol/input.js";
import { opencodeAnswer, opencodeOutcome } from "./protocol/output.js";

/** OpenCode, through hookyard's plugin (integrations/opencode/), as a profile. */
export const opencodeProfile: AgentProfile = {
  ...opencodeProfileEvents,
  parseInput(event, text) {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new AgentInputError(`stdin is not valid JSON: ${why}`);
    }
    opencodeInputToCtx(input, event);
    return input;
  },
  async handle(hooks, event, input) {
    const mapped = opencodeInputToCtx(input, event);
    if ("passthrough" in mapped) return opencodeAnswer({});
    const outcome = await hooks.dispatch(mapped.point, mapped.ctx as never);
    return opencodeOutcome(mapped.point, outcome, input);
  },
  emptyAnswer: () => opencodeAnswer({}),
  notice: (message) => opencodeAnswer({ message: capText(message) }),
};
