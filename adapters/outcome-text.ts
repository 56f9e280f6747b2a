import type { ChainOutcome } from "../runner/chain/outcome.js";
import { capText, hookNames, injectText } from "./claude/protocol/text.js";

/**
 * The words every agent's answer shares, whatever field it puts them in: the block's reason, the
 * hooks that rewrote, what the user is told beside the decision, a continue at the agent's stop.
 */

/** The hooks whose rewrites are in the outcome: where the agent cannot take one, they are named. */
export function rewritersOf(outcome: ChainOutcome): string[] {
  return outcome.runs.filter((run) => run.effects.includes("rewrite")).map((run) => run.hook);
}

/** Why the call or prompt is blocked, as the agent shows it (capped); undefined when nothing blocked. */
export function blockReasonOf(outcome: ChainOutcome): string | undefined {
  const { blockedBy } = outcome;
  if (outcome.verdict !== "block" || !blockedBy) return undefined;
  return capText(`Blocked by hook "${blockedBy.hook}": ${blockedBy.reason}`);
}

/** Why the hooks ask for confirmation, every asking hook named (uncapped: some agents add to it). */
export function askReasonsOf(outcome: ChainOutcome): string {
  return outcome.asks.map((ask) => `hook "${ask.hook}": ${ask.reason}`).join("; ");
}

/**
 * What the agent's user is told beside the decision, a line each: every hook's notice, then every
 * hook that failed and was ignored (the blocking hook's failure is the block itself; a dropped
 * effect is said by the agent's own answer, where it is dropped).
 */
export function userLines(outcome: ChainOutcome): string[] {
  const notices = outcome.notices.map((n) => `${n.hook}: ${n.text}`);
  const failures = outcome.warnings
    .filter((w) => w.code !== "RUN_ERR_EFFECT_DROPPED" && w.hook !== outcome.blockedBy?.hook)
    .map((w) =>
      // A matcher stopped by its budget did not fail: the hook ran, and the message says why.
      w.code === "RUN_ERR_MATCHER_TIMEOUT"
        ? `hookyard: hook "${w.hook}" at ${w.point} ${w.message}`
        : `hookyard: hook "${w.hook}" failed at ${w.point} and was ignored: ${w.message}`,
    );
  return [...notices, ...failures];
}

/** What an agent answers with at its stop, as far as a continue goes. */
export interface StopAnswer {
  body: Record<string, unknown>;
  notes: string[];
  injectsUsed: boolean;
}

/**
 * A continue at the agent's stop, for an agent whose stop hook starts the next turn with a
 * decision and its reason (Claude Code's `block`, Gemini CLI's `deny`): a note for the user
 * instead when `refusal` says why it is not passed on. The reason is the hooks' reasons, then
 * their injects, which no next model request carries at a stop; capped.
 */
export function continueAtStop(
  answer: StopAnswer,
  outcome: ChainOutcome,
  refusal: string | undefined,
  decision: string,
): void {
  if (outcome.continues.length === 0) return;
  if (refusal !== undefined) {
    const hooks = hookNames(outcome.continues.map((c) => c.hook));
    answer.notes.push(`hookyard: continue from hook ${hooks} ignored: ${refusal}`);
    return;
  }
  const reasons = outcome.continues.map((c) => c.reason);
  if (outcome.injects.length > 0) reasons.push(injectText(outcome.injects));
  answer.injectsUsed = true;
  answer.body.decision = decision;
  answer.body.reason = capText(reasons.join("\n\n"));
}
