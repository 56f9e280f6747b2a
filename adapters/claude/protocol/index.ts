/**
 * The `claude` profile: that coding agent's hook protocol both ways. Its events fire our points,
 * its input becomes our ctx (and back, for its scripts run under hookyard), our chain's outcome
 * becomes its output, as a command hook's exit code and stdout or an http hook's JSON body.
 */
export {
  type ContinueGuard,
  fileContinueGuard,
  maxContinues,
  memoryContinueGuard,
} from "./continue-guard.js";
export {
  type ClaudeEvent,
  claudeEventFor,
  claudeEventPoint,
  claudeEvents,
  claudeEventTable,
} from "./events.js";
export { type ClaudeEventOptions, handleClaudeEvent } from "./handle.js";
export { type ClaudeAgentInfo, type ClaudeInputCtx, claudeInputToCtx } from "./input.js";
export { type ClaudeAnswer, type ClaudeOutcomeOptions, claudeOutcome, emptyAnswer } from "./output.js";
export { type ClaudeInputDefaults, claudeAgentOf, claudeInputFromCtx } from "./reverse.js";
export { capText, outputCap } from "./text.js";
export { agentToolName, argsFromAgent, argsToAgent, claudeToolName } from "./tools.js";
export { uncheckedRefusal } from "./unchecked.js";
