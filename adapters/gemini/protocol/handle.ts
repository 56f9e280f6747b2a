import { errorText } from "../../../core/errors.js";
import {
  type ContinueGuard,
  maxContinues as defaultMaxContinues,
  fileContinueGuard,
  memoryContinueGuard,
} from "../../claude/protocol/continue-guard.js";
import type { EventAnswer, EventHooks } from "../../profile.js";
import { geminiInputToCtx } from "./input.js";
import { geminiEmptyAnswer, geminiOutcome, geminiStopHookActive } from "./output.js";

export interface GeminiEventOptions {
  /** Where consecutive continues are counted; default `.hookyard/state` under `hooks.root`, else memory. */
  guard?: ContinueGuard;
  /** Continues in a row a session may get at AfterAgent (default 3). */
  maxContinues?: number;
}

const processGuard = memoryContinueGuard();

/**
 * One Gemini CLI event, start to end: the input as a ctx, the chain run, the outcome in that
 * agent's form. An unmapped event passes through. Throws AgentInputError for input that is not
 * that agent's; a hook's failure is the chain's business.
 */
export async function handleGeminiEvent(
  hooks: EventHooks,
  eventName: string | undefined,
  input: unknown,
  options: GeminiEventOptions = {},
): Promise<EventAnswer> {
  const mapped = geminiInputToCtx(input, eventName);
  if ("passthrough" in mapped) return geminiEmptyAnswer();
  const outcome = await hooks.dispatch(mapped.point, mapped.ctx as never);
  if (mapped.point !== "turn_after")
    return geminiOutcome(mapped.point, outcome, input, { event: mapped.event });
  const guard =
    options.guard ?? (typeof hooks.root === "string" ? fileContinueGuard(hooks.root) : processGuard);
  const key = `gemini:${mapped.ctx.sessionId}:${mapped.event}`;
  const max = options.maxContinues ?? defaultMaxContinues;
  let refusal: string | undefined;
  let problem: string | undefined;
  try {
    if (outcome.continues.length === 0 || geminiStopHookActive(input)) {
      // A stop that goes through ends the run; stop_hook_active is refused by the output itself.
      if (outcome.continues.length === 0) await guard.set(key, 0);
    } else {
      const count = await guard.count(key);
      if (count >= max) {
        await guard.set(key, 0);
        refusal = `this session already went on ${count} times in a row at AfterAgent (at most ${max})`;
      } else await guard.set(key, count + 1);
    }
  } catch (error) {
    problem = `the count of continues could not be kept: ${errorText(error)}`;
  }
  const answer = geminiOutcome(mapped.point, outcome, input, {
    event: mapped.event,
    ...(refusal ? { continueRefusal: refusal } : {}),
  });
  if (problem) answer.stderr += `hookyard: warning: ${problem}\n`;
  return answer;
}
