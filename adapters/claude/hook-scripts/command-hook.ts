import type { Point } from "../../../core/events.js";
import type { Matcher } from "../../../core/hook.js";
import { matchBudgetMs } from "../../../core/regex.js";
import { type CompiledHook, defaults } from "../../../runner/compiled-hook.js";
import {
  commandArgv,
  commandSource,
  hookProcessEnv,
  runProcess,
} from "../../../runner/engines/command-process.js";
import { type CompileContext, type RuleBase, ruleSettings } from "../../../runner/engines/settings.js";
import { claudeAnswer } from "./answer.js";
import { claudeProfilePoints, matcherFieldOf } from "./events.js";
import { claudeHookInput } from "./input.js";
import { agentMatcherIssue, compileAgentMatcher } from "./matcher.js";

/** The fields of a command rule the claude profile reads. */
export interface ClaudeCommandConfig extends Omit<RuleBase, "matcher"> {
  command: string | string[];
  env?: Record<string, string> | undefined;
  profile?: "claude" | undefined;
  matcher?: Matcher | string | undefined;
}

/** What is wrong with a command rule's profile settings, or undefined: checked when hookyard.json is read. */
export function claudeProfileIssue(
  config: Pick<ClaudeCommandConfig, "profile" | "matcher" | "events">,
): { field: string; message: string } | undefined {
  if (config.profile === undefined) {
    if (typeof config.matcher === "string") {
      return {
        field: "matcher",
        message:
          'a matcher string (that agent\'s form) needs "profile": "claude"; ours is { "field": "regex" }',
      };
    }
    return undefined;
  }
  const unsupported = config.events.filter((point) => !claudeProfilePoints.includes(point));
  if (unsupported.length > 0) {
    return {
      field: "events",
      message: `the claude profile has no event for ${unsupported.join(", ")} (it runs at ${claudeProfilePoints.join(", ")})`,
    };
  }
  if (typeof config.matcher === "string") {
    const issue = agentMatcherIssue(config.matcher);
    if (issue) return { field: "matcher", message: issue };
  }
  return undefined;
}

/**
 * A command rule with `profile: "claude"`: a script written for that agent's command hooks runs
 * unchanged. It reads that agent's input JSON on stdin and finds CLAUDE_PROJECT_DIR in its env; its
 * exit code and output are read by that agent's rules (command-claude-answer.ts). A matcher string
 * is tested the way that agent tests it, on the field it tests (the tool's name as that agent names
 * it, the session source, …), before any process starts.
 */
export function claudeCommandHook(config: ClaudeCommandConfig, context: CompileContext): CompiledHook {
  const argv = commandArgv(config.command);
  const agentMatcher = typeof config.matcher === "string" ? config.matcher : undefined;
  const matches = compileAgentMatcher(agentMatcher);
  const settings = ruleSettings(
    { ...config, matcher: typeof config.matcher === "string" ? undefined : config.matcher },
    context,
    defaults.externalTimeoutMs,
  );
  const rule: CompiledHook = {
    ...settings,
    engine: "command",
    trust: "trusted",
    source: commandSource(config.command),
    selfTimed: true,
    run: async (point: Point, ctx, api) => {
      const input = claudeHookInput(point, ctx, context.root);
      const field = matcherFieldOf(String(input.hook_event_name));
      if (agentMatcher !== undefined && field !== undefined) {
        const answer = matches(String(input[field] ?? ""));
        if (answer === false) return undefined;
        // Stopped by the regex budget: it counts as a match, so a guard still checks (runner/chain/matcher.ts, LateMatch).
        if (answer === "timeout") {
          api.log(
            `warning: matcher ${JSON.stringify(agentMatcher.slice(0, 80))} on "${field}" took more than ${matchBudgetMs} ms on this input and was stopped, so the hook runs; simplify the pattern`,
          );
        }
      }
      // What that agent gives its hooks, beside what hookyard gives every command hook.
      const env = {
        ...hookProcessEnv(config.env, rule.name, point, context.root),
        CLAUDE_PROJECT_DIR: context.root,
      };
      const result = await runProcess(argv, JSON.stringify(input), {
        cwd: context.root,
        env,
        timeoutMs: rule.timeoutMs,
      });
      return claudeAnswer(point, ctx, result, rule.name, (message) => api.log(message));
    },
  };
  return rule;
}
