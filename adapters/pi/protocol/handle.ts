import { errorText } from "../../../core/errors.js";
import {
  type ContinueGuard,
  maxContinues as defaultMaxContinues,
  fileContinueGuard,
  memoryContinueGuard,
} from "../../claude/protocol/continue-guard.js";
import type { EventAnswer, EventHooks } from "../../profile.js";
import { type PiAgentInfo, piInputToCtx } from "./input.js";
import { piEmptyAnswer, piOutcome } from "./output.js";

export interface PiEventOptions {
  /** Where consecutive continues are counted; default `.hookyard/state` under `hooks.root`, else memory. */
  guard?: ContinueGuard;
  /** Continues in a row a session may get at agent_end (default 3). */
  maxContinues?: number;
}

const processGuard = memoryContinueGuard();

/**
 * One event from Pi's extension, start to end: the input as a ctx, the chain run, the outcome as
 * the answer the extension reads. An unmapped event passes through. Throws AgentInputError for
 * input that is not that extension's; a hook's failure is the chain's business.
 */
export async function handlePiEvent(
  hooks: EventHooks,
  eventName: string | undefined,
  input: unknown,
  options: PiEventOptions = {},
): Promise<EventAnswer> {
  const mapped = piInputToCtx(input, eventName);
  if ("passthrough" in mapped) return piEmptyAnswer();
  const agent = mapped.ctx.agent as PiAgentInfo;
  const outcome = await hooks.dispatch(mapped.point, mapped.ctx as never);
  if (mapped.point !== "turn_after") {
    return piOutcome(mapped.point, outcome, agent.otherContent ? { otherContent: agent.otherContent } : {});
  }
  const guard =
    options.guard ?? (typeof hooks.root === "string" ? fileContinueGuard(hooks.root) : processGuard);
  const key = `pi:${mapped.ctx.sessionId}:${mapped.event}`;
  const max = options.maxContinues ?? defaultMaxContinues;
  let refusal: string | undefined;
  let problem: string | undefined;
  try {
    if (outcome.continues.length === 0) await guard.set(key, 0);
    else {
      const count = await guard.count(key);
      if (count >= max) {
        await guard.set(key, 0);
        refusal = `this session already went on ${count} times in a row at agent_end (at most ${max})`;
      } else await guard.set(key, count + 1);
    }
  } catch (error) {
    problem = `the count of continues could not be kept: ${errorText(error)}`;
  }
  const answer = piOutcome(mapped.point, outcome, refusal ? { continueRefusal: refusal } : {});
  if (problem) answer.stderr += `hookyard: warning: ${problem}\n`;
  return answer;
}
