import type { Point } from "../../../core/events.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import { capText, hookNames, injectText } from "../../claude/protocol/text.js";
import { askReasonsOf, blockReasonOf, rewritersOf, userLines } from "../../outcome-text.js";
import type { EventAnswer } from "../../profile.js";

/**
 * What hookyard answers Pi's extension (integrations/pi/index.ts reads it): one JSON object on
 * stdout, exit 0, each field something Pi lets an extension do at that event. Empty: go on.
 */
export interface PiAnswer {
  /** tool_call: refuse the call, `reason` is what the model gets as its result. */
  block?: true;
  reason?: string;
  /** tool_call: a hook asked for the user's approval; the extension asks where Pi has a UI, else refuses. */
  ask?: string;
  /** tool_call: the tool's whole new input (the extension replaces event.input's fields with it). */
  input?: Record<string, unknown>;
  /** tool_result: the result's new content (Pi's parts) and, for a rewritten error, isError. */
  content?: Array<Record<string, unknown>>;
  /** input: `handled` refuses the prompt (no model call), `transform` sends `text` instead. */
  action?: "handled" | "transform";
  text?: string;
  /** Text for the model: sent before the next model call (a prompt's, with it). */
  inject?: string;
  /** agent_end: the prompt of one more run. */
  continue?: string;
  /** For the user: shown where Pi has a UI, else on stderr. */
  notice?: string;
}

export interface PiOutcomeOptions {
  /** The tool_result's content as sent, whose parts that are not text a rewrite keeps. */
  otherContent?: unknown[];
  /** Why a continue at agent_end is not passed on (the cap on consecutive continues). */
  continueRefusal?: string;
}

/** No hook had anything to say. */
export function piEmptyAnswer(): EventAnswer {
  return { exitCode: 0, stdout: "", stderr: "" };
}

interface Draft {
  answer: PiAnswer;
  notes: string[];
  rewriters: string[];
  blockReason: string | undefined;
  /** The injects went into the answer's own text (a rewritten result). */
  injectsUsed: boolean;
}

const pointOutput: Partial<
  Record<Point, (draft: Draft, outcome: ChainOutcome, options: PiOutcomeOptions) => void>
> = {
  tool_before(draft, outcome) {
    const { answer } = draft;
    if (draft.blockReason !== undefined) {
      answer.block = true;
      answer.reason = draft.blockReason;
      return;
    }
    if (outcome.verdict === "ask") {
      answer.ask = capText(askReasonsOf(outcome));
    }
    if (draft.rewriters.length > 0) answer.input = outcome.ctx.args as Record<string, unknown>;
  },
  tool_after(draft, outcome, options) {
    if (draft.rewriters.length === 0 && outcome.injects.length === 0) return;
    // Pi replaces the result's content with what tool_result returns: the text (with an inject
    // after it, where the model reads it with the result), and the parts that were not text.
    const parts = [outcome.ctx.result as string];
    if (outcome.injects.length > 0) parts.push(injectText(outcome.injects));
    draft.injectsUsed = true;
    draft.answer.content = [
      { type: "text", text: capText(parts.join("\n\n")) },
      ...((options.otherContent ?? []) as Array<Record<string, unknown>>),
    ];
  },
  tool_error(draft, outcome) {
    if (outcome.injects.length === 0) return;
    draft.injectsUsed = true;
    draft.answer.content = [
      { type: "text", text: capText(`${outcome.ctx.error as string}\n\n${injectText(outcome.injects)}`) },
    ];
  },
  turn_before(draft, outcome) {
    if (draft.blockReason !== undefined) {
      draft.answer.action = "handled";
      draft.answer.reason = draft.blockReason;
    } else if (draft.rewriters.length > 0) {
      draft.answer.action = "transform";
      draft.answer.text = outcome.ctx.prompt as string;
    }
  },
  turn_after(draft, outcome, options) {
    if (outcome.continues.length === 0) return;
    if (options.continueRefusal !== undefined) {
      const hooks = hookNames(outcome.continues.map((c) => c.hook));
      draft.notes.push(`hookyard: continue from hook ${hooks} ignored: ${options.continueRefusal}`);
      return;
    }
    const reasons = outcome.continues.map((c) => c.reason);
    if (outcome.injects.length > 0) reasons.push(injectText(outcome.injects));
    draft.injectsUsed = true;
    draft.answer.continue = capText(reasons.join("\n\n"));
  },
};

/** Points whose inject Pi can take: the extension sends it to the model before its next call. */
const injectPoints: ReadonlySet<Point> = new Set(["tool_before", "turn_before", "agent_before"]);

/**
 * A chain's outcome as the answer Pi's extension reads (PiAnswer). What Pi has no place for at an
 * event is said in `notice`, never silently lost.
 */
export function piOutcome(point: Point, outcome: ChainOutcome, options: PiOutcomeOptions = {}): EventAnswer {
  const draft: Draft = {
    answer: {},
    notes: [],
    rewriters: rewritersOf(outcome),
    blockReason: blockReasonOf(outcome),
    injectsUsed: false,
  };
  pointOutput[point]?.(draft, outcome, options);
  const { answer } = draft;
  const warnings: string[] = [];
  if (outcome.injects.length > 0 && !draft.injectsUsed && answer.block === undefined) {
    if (injectPoints.has(point)) answer.inject = capText(injectText(outcome.injects));
    else {
      const hooks = hookNames(outcome.injects.map((i) => i.hook));
      warnings.push(`hookyard: warning: inject from hook ${hooks} dropped: Pi takes no context at ${point}`);
    }
  }
  const message = [...userLines(outcome), ...draft.notes, ...warnings].join("\n");
  if (message) answer.notice = capText(message);
  if (Object.keys(answer).length === 0) return piEmptyAnswer();
  return { exitCode: 0, stdout: `${JSON.stringify(answer)}\n`, stderr: "" };
}
