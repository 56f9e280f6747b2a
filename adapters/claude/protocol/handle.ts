import { errorText } from "../../../core/errors.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import type { Hooks } from "../../../runner/load/load-hooks.js";
import {
  type ContinueGuard,
  maxContinues as defaultMaxContinues,
  fileContinueGuard,
  memoryContinueGuard,
} from "./continue-guard.js";
import { type ClaudeDialect, claudeInputToCtx } from "./input.js";
import { type ClaudeAnswer, claudeOutcome, emptyAnswer, stopHookActive } from "./output.js";

export interface ClaudeEventOptions {
  /** Where consecutive continues are counted; default `.hookyard/state` under `hooks.root`, else memory. */
  guard?: ContinueGuard;
  /** Continues in a row a session may get at a stop (default 3). */
  maxContinues?: number;
  /**
   * Another agent that reads this JSON (Codex): its events (`dialect`, for the input) and its own
   * form of the answer (`outcome`, Claude Code's by default). Continues are counted per agent.
   */
  dialect?: ClaudeDialect;
  outcome?: typeof claudeOutcome;
}

const processGuard = memoryContinueGuard();

/**
 * One event, start to end: the input mapped to a ctx, the chain run, the outcome in the agent's
 * forms. An event hookyard does not map passes through (exit 0, nothing said). Throws
 * AgentInputError for input that is not that agent's; a hook's failure is the chain's business.
 */
export async function handleClaudeEvent(
  hooks: Pick<Hooks, "dispatch"> & { readonly root?: string },
  eventName: string | undefined,
  input: unknown,
  options: ClaudeEventOptions = {},
): Promise<ClaudeAnswer> {
  const mapped = claudeInputToCtx(input, eventName, options.dialect);
  if ("passthrough" in mapped) return emptyAnswer();
  const toAnswer = options.outcome ?? claudeOutcome;
  const outcome = await hooks.dispatch(mapped.point, mapped.ctx as never);
  if (mapped.point !== "turn_after") return toAnswer(mapped.point, outcome, input, { event: mapped.event });
  const guard =
    options.guard ?? (typeof hooks.root === "string" ? fileContinueGuard(hooks.root) : processGuard);
  const prefix = options.dialect && options.dialect.name !== "claude" ? `${options.dialect.name}:` : "";
  const key = `${prefix}${mapped.ctx.sessionId}:${mapped.event}`;
  let checked: { refusal?: string; problem?: string };
  try {
    checked = await checkContinue(guard, key, outcome, input, options.maxContinues ?? defaultMaxContinues);
  } catch (error) {
    // The count could not be kept: the agent's own stop_hook_active still ends a loop.
    checked = { problem: `the count of continues could not be kept: ${errorText(error)}` };
  }
  const answer = toAnswer(mapped.point, outcome, input, {
    event: mapped.event,
    ...(checked.refusal ? { continueRefusal: checked.refusal } : {}),
  });
  if (checked.problem) answer.stderr += `hookyard: warning: ${checked.problem}\n`;
  return answer;
}

/** Counts a continue that will be passed on; a stop that goes through ends the run of them. */
async function checkContinue(
  guard: ContinueGuard,
  key: string,
  outcome: ChainOutcome,
  input: unknown,
  max: number,
): Promise<{ refusal?: string }> {
  if (outcome.continues.length === 0 || stopHookActive(input)) {
    await guard.set(key, 0);
    return {};
  }
  const count = await guard.count(key);
  if (count >= max) {
    await guard.set(key, 0);
    return { refusal: `this session already went on ${count} times in a row at a stop (at most ${max})` };
  }
  await guard.set(key, count + 1);
  return {};
}
