import { capText } from "../claude/protocol/text.js";
import { parseJsonStdin } from "../json-stdin.js";
import type { AgentProfile } from "../profile.js";
import { opencodeProfileEvents } from "./profile-events.js";
import { opencodeInputToCtx } from "./protocol/input.js";
import { opencodeAnswer, opencodeOutcome } from "./protocol/output.js";

/** OpenCode, through hookyard's plugin (integrations/opencode/), as a profile. */
export const opencodeProfile: AgentProfile = {
  ...opencodeProfileEvents,
  parseInput: (event, text) => parseJsonStdin(text, (input) => opencodeInputToCtx(input, event)),
  async handle(hooks, event, input) {
    const mapped = opencodeInputToCtx(input, event);
    if ("passthrough" in mapped) return opencodeAnswer({});
    const outcome = await hooks.dispatch(mapped.point, mapped.ctx as never);
    return opencodeOutcome(mapped.point, outcome, input);
  },
  emptyAnswer: () => opencodeAnswer({}),
  notice: (message) => opencodeAnswer({ message: capText(message) }),
};
