import { matchBudgetMs } from "../../../core/regex.js";
import type { ScriptProtocol } from "../../../runner/engines/script-protocols.js";
import { claudeAnswer } from "./answer.js";
import { claudeProfilePoints, matcherFieldOf } from "./events.js";
import { claudeHookInput } from "./input.js";
import { agentMatcherIssue, compileAgentMatcher } from "./matcher.js";

/**
 * `profile: "claude"` on a command hook: a script written for that agent's command hooks runs
 * unchanged. It reads that agent's input JSON on stdin and finds CLAUDE_PROJECT_DIR in its env; its
 * exit code and output are read by that agent's rules (answer.ts). A matcher string is tested the
 * way that agent tests it, on the field it tests (the tool's name as that agent names it, the
 * session source, …), before any process starts.
 */
export const claudeScriptProtocol: ScriptProtocol = {
  name: "claude",
  points: claudeProfilePoints,
  matcherIssue: agentMatcherIssue,
  caller(matcher, root) {
    const matches = compileAgentMatcher(matcher);
    return (point, ctx, log) => {
      const input = claudeHookInput(point, ctx, root);
      const field = matcherFieldOf(String(input.hook_event_name));
      if (matcher !== undefined && field !== undefined) {
        const answer = matches(String(input[field] ?? ""));
        if (answer === false) return undefined;
        // Stopped by the regex budget: it counts as a match, so a guard still checks (runner/chain/matcher.ts, LateMatch).
        if (answer === "timeout") {
          log(
            `warning: matcher ${JSON.stringify(matcher.slice(0, 80))} on "${field}" took more than ${matchBudgetMs} ms on this input and was stopped, so the hook runs; simplify the pattern`,
          );
        }
      }
      return { stdin: JSON.stringify(input), env: { CLAUDE_PROJECT_DIR: root } };
    };
  },
  answer: claudeAnswer,
};
