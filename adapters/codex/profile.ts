import { AgentInputError } from "../agent-input-error.js";
import { claudeInputToCtx } from "../claude/protocol/input.js";
import { emptyAnswer } from "../claude/protocol/output.js";
import { capText } from "../claude/protocol/text.js";
import type { AgentProfile } from "../profile.js";
import { codexProfileEvents } from "./profile-events.js";
import { codexDialect, handleCodexEvent } from "./protocol/handle.js";

/** Codex's command hooks (`.codex/hooks.json`) as a profile. */
export const codexProfile: AgentProfile = {
  ...codexProfileEvents,
  parseInput(event, text) {
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch (error) {
      const why = (error as Error).message.replace(/\s+/g, " ");
      throw new AgentInputError(`stdin is not valid JSON: ${why}`);
    }
    claudeInputToCtx(input, event, codexDialect);
    return input;
  },
  handle: (hooks, event, input) => handleCodexEvent(hooks, event, input),
  emptyAnswer: () => {
    const { stdout, stderr, exitCode } = emptyAnswer();
    return { stdout, stderr, exitCode };
  },
  notice: (message) => ({
    stdout: `${JSON.stringify({ systemMessage: capText(message) })}\n`,
    stderr: "",
    exitCode: 0,
  }),
};
