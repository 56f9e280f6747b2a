import type { Point } from "../../../core/events.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import type { ClaudeDraft } from "../../claude/protocol/output.js";
import { capText, hookNames, injectText } from "../../claude/protocol/text.js";
import { askReasonsOf, blockReasonOf, continueAtStop, rewritersOf, userLines } from "../../outcome-text.js";
import type { EventAnswer } from "../../profile.js";
import { geminiArgsToAgent } from "./tools.js";

export interface GeminiOutcomeOptions {
  /** The event the agent fired (BeforeTool, …). */
  event: string;
  /** Why a continue at AfterAgent is not passed on (the cap on consecutive continues). */
  continueRefusal?: string;
}

/** No hook had anything to say. */
export function geminiEmptyAnswer(): EventAnswer {
  return { exitCode: 0, stdout: "", stderr: "" };
}

/** The input said the agent is already retrying because an AfterAgent hook asked it to. */
export function geminiStopHookActive(input: unknown): boolean {
  return (input as { stop_hook_active?: unknown } | null)?.stop_hook_active === true;
}

/**
 * Events whose `hookSpecificOutput.additionalContext` reaches the model (Gemini CLI 0.61): appended
 * to the tool's result (AfterTool; not a failed tool's, tool_error above), to the prompt
 * (BeforeAgent), put before the prompt (SessionStart, non-interactive) or as the first turn.
 */
const contextEvents = new Set(["AfterTool", "BeforeAgent", "SessionStart"]);

/** Claude Code's draft without its event: Gemini CLI's answer has the same fields. */
type Draft = Omit<ClaudeDraft, "event">;

const pointOutput: Partial<
  Record<Point, (draft: Draft, outcome: ChainOutcome, options: GeminiOutcomeOptions) => void>
> = {
  tool_before(draft, outcome) {
    const { body, specific, rewriters, blockReason, sent } = draft;
    if (blockReason !== undefined) {
      body.decision = "deny";
      body.reason = blockReason;
      return;
    }
    if (outcome.verdict === "ask") {
      body.decision = "ask";
      body.reason = capText(askReasonsOf(outcome));
    }
    if (rewriters.length > 0) {
      // The whole object: the agent merges it over its arguments (and, in its scheduler, builds
      // the call from it alone), so a field left out could be lost.
      const tool = typeof sent.tool_name === "string" ? sent.tool_name : "";
      const input = isRecord(sent.tool_input) ? sent.tool_input : undefined;
      specific.tool_input = geminiArgsToAgent(tool, outcome.ctx.args as Record<string, unknown>, input);
    }
  },
  tool_after(draft, outcome) {
    if (draft.rewriters.length === 0) return;
    // That agent replaces a tool's result only when an AfterTool hook denies it: the reason is
    // what the model gets instead ("Tool result blocked: <reason>"), and additionalContext is
    // then not read, so an inject goes in the same text.
    const parts = [outcome.ctx.result as string];
    if (outcome.injects.length > 0) parts.push(injectText(outcome.injects));
    draft.injectsUsed = true;
    draft.body.decision = "deny";
    draft.body.reason = capText(parts.join("\n\n"));
  },
  tool_error(draft, outcome) {
    if (outcome.injects.length === 0) return;
    // A failed tool's result reaches the model as its error alone (additionalContext, appended to
    // the text it does not send, is lost): the error goes back as the denied result's reason,
    // with the injected text after it.
    draft.injectsUsed = true;
    draft.body.decision = "deny";
    draft.body.reason = capText(`${outcome.ctx.error as string}\n\n${injectText(outcome.injects)}`);
  },
  turn_before(draft) {
    if (draft.blockReason !== undefined) {
      draft.body.decision = "deny";
      draft.body.reason = draft.blockReason;
    } else if (draft.rewriters.length > 0) {
      draft.notes.push(
        `hookyard: hook ${hookNames(draft.rewriters)} rewrote the prompt, which Gemini CLI cannot change from a hook: it goes on as typed`,
      );
    }
  },
  turn_after(draft, outcome, options) {
    const refusal = geminiStopHookActive(draft.sent)
      ? "Gemini CLI is already going on because a hook asked it to (stop_hook_active)"
      : options.continueRefusal;
    // A denied AfterAgent is that agent's retry: the reason is its next prompt.
    continueAtStop(draft, outcome, refusal, "deny");
  },
};

/**
 * A chain's outcome as Gemini CLI's protocol says it: JSON on stdout with exit 0 (its preferred
 * form, blocks included: `decision: "deny"` with the reason), nothing for no decision. What the
 * agent has no place for at an event is named in `systemMessage`, never silently lost: stderr
 * would do (with an empty stdout the agent reads stderr as a message), but only as plain text.
 */
export function geminiOutcome(
  point: Point,
  outcome: ChainOutcome,
  input: unknown,
  options: GeminiOutcomeOptions,
): EventAnswer {
  const sent = (isRecord(input) ? input : {}) as Record<string, unknown>;
  const draft: Draft = {
    sent,
    body: {},
    specific: {},
    notes: [],
    rewriters: rewritersOf(outcome),
    blockReason: blockReasonOf(outcome),
    injectsUsed: false,
  };
  pointOutput[point]?.(draft, outcome, options);
  const { body, specific } = draft;
  const { event } = options;

  const warnings: string[] = [];
  if (outcome.injects.length > 0 && !draft.injectsUsed) {
    const hooks = hookNames(outcome.injects.map((i) => i.hook));
    if (contextEvents.has(event)) specific.additionalContext = capText(injectText(outcome.injects));
    else
      warnings.push(
        `hookyard: warning: inject from hook ${hooks} dropped: Gemini CLI takes no context at ${event}`,
      );
  }
  const message = [...userLines(outcome), ...draft.notes, ...warnings].join("\n");
  if (message) body.systemMessage = capText(message);
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: event, ...specific };
  const stderr = capText(warnings.map((w) => `${w}\n`).join(""));
  if (Object.keys(body).length === 0) return { exitCode: 0, stdout: "", stderr: "" };
  return { exitCode: 0, stdout: `${JSON.stringify(body)}\n`, stderr };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
