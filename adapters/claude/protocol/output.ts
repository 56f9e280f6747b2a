import type { Point } from "../../../core/events.js";
import type { ChainOutcome } from "../../../runner/chain/outcome.js";
import { askReasonsOf, blockReasonOf, continueAtStop, rewritersOf, userLines } from "../../outcome-text.js";
import { claudeEventFor, claudeEventPoint } from "./events.js";
import { resultBack } from "./result-shapes.js";
import { capText, hookNames, injectText } from "./text.js";
import { argsToAgent } from "./tools.js";

/**
 * One answer in both of the agent's forms: `exitCode`, `stdout` and `stderr` for a command hook,
 * `body` for an http hook (the JSON object it answers with; `{}` is no decision).
 */
export interface ClaudeAnswer {
  exitCode: 0 | 2;
  stdout: string;
  stderr: string;
  body: Record<string, unknown>;
}

export interface ClaudeOutcomeOptions {
  /** The event the agent fired; default the input's hook_event_name, else the point's first event. */
  event?: string;
  /** Why a continue at turn_after is not passed on (the cap on consecutive continues); unset lets it through. */
  continueRefusal?: string;
  /** The agent's name in what the answer says (default "Claude Code"; Codex reads the same JSON). */
  title?: string;
  /** Another agent's own answer at some points (Codex takes a rewritten result otherwise). */
  pointOutput?: PointOutput;
}

/** No hook had anything to say, or the event is not one hookyard maps. */
export function emptyAnswer(): ClaudeAnswer {
  return { exitCode: 0, stdout: "", stderr: "", body: {} };
}

/** Events whose hookSpecificOutput takes additionalContext. */
const contextEvents = new Set<string>([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "SessionStart",
]);
/** Events where plain text on stdout is context for the model, so an inject alone needs no JSON. */
const plainTextEvents = new Set<string>(["UserPromptSubmit", "SessionStart"]);

/** The input said the agent is already going on because a stop hook asked it to. */
export function stopHookActive(input: unknown): boolean {
  return (input as { stop_hook_active?: unknown } | null)?.stop_hook_active === true;
}

/** The answer being put together: the body's fields, hookSpecificOutput's, and lines for the user. */
export interface ClaudeDraft {
  event: string;
  sent: Record<string, unknown>;
  body: Record<string, unknown>;
  specific: Record<string, unknown>;
  notes: string[];
  /** Hooks whose rewrite was applied, in chain order. */
  rewriters: string[];
  /** `Blocked by hook "x": why`, when the chain blocked. */
  blockReason: string | undefined;
  /** The injects went out another way (in a continue's reason). */
  injectsUsed: boolean;
}

type Draft = ClaudeDraft;

export type PointOutput = Partial<
  Record<Point, (draft: ClaudeDraft, outcome: ChainOutcome, options: ClaudeOutcomeOptions) => void>
>;

/** What each point's own effects (block, ask, rewrite, continue) become; inject and notice are common. */
export const claudePointOutput: PointOutput = {
  tool_before(draft, outcome) {
    const { specific, rewriters, blockReason, sent } = draft;
    if (blockReason !== undefined) {
      specific.permissionDecision = "deny";
      specific.permissionDecisionReason = blockReason;
      return;
    }
    if (outcome.verdict === "ask") {
      specific.permissionDecision = "ask";
      specific.permissionDecisionReason = capText(askReasonsOf(outcome));
    } else if (rewriters.length > 0) {
      // That agent applies updatedInput only beside a decision: the rewritten call is allowed,
      // its own deny and ask rules still apply.
      specific.permissionDecision = "allow";
      specific.permissionDecisionReason = `arguments rewritten by hook ${hookNames(rewriters)}`;
    }
    if (rewriters.length > 0) {
      // The whole object: the agent replaces its input with it, so a field left out would be lost.
      const tool = typeof sent.tool_name === "string" ? sent.tool_name : "";
      const args = outcome.ctx.args as Record<string, unknown>;
      specific.updatedInput = argsToAgent(
        tool,
        args,
        isRecord(sent.tool_input) ? sent.tool_input : undefined,
      );
    }
  },
  tool_after(draft, outcome) {
    if (draft.rewriters.length === 0) return;
    const tool = typeof draft.sent.tool_name === "string" ? draft.sent.tool_name : "";
    const back = resultBack(tool, outcome.ctx.result as string, draft.sent.tool_response);
    if ("value" in back) {
      draft.specific.updatedToolOutput = typeof back.value === "string" ? capText(back.value) : back.value;
      return;
    }
    // Sent anyway, the rewrite would be dropped and the original result (the secret a redactor
    // took out) would reach the model: the session stops here instead, and says why.
    const why = `hookyard: the rewrite of ${tool || "the tool"}'s result by hook ${hookNames(draft.rewriters)} could not be applied (${back.refused}), so Claude Code is stopped before the unrewritten result reaches the model`;
    draft.body.continue = false;
    draft.body.stopReason = capText(why);
    draft.notes.push(why);
  },
  turn_before(draft, _outcome, options) {
    if (draft.blockReason !== undefined) {
      draft.body.decision = "block";
      draft.body.reason = draft.blockReason;
    } else if (draft.rewriters.length > 0) {
      draft.notes.push(
        `hookyard: hook ${hookNames(draft.rewriters)} rewrote the prompt, which ${options.title ?? "Claude Code"} cannot change once submitted: it goes on as typed`,
      );
    }
  },
  turn_after(draft, outcome, options) {
    const refusal = stopHookActive(draft.sent)
      ? `${options.title ?? "Claude Code"} is already going on because a stop hook asked it to (stop_hook_active)`
      : options.continueRefusal;
    continueAtStop(draft, outcome, refusal, "block");
  },
};

/**
 * A chain's outcome as the agent's protocol says it. Everything goes out as JSON with exit 0,
 * except a blocked prompt: exit 2 with the reason on stderr, that protocol's prompt block (the
 * prompt is erased and the user reads why). Effects the agent has no place for at an event are
 * named on stderr, never silently lost; every string is held to outputCap.
 */
export function claudeOutcome(
  point: Point,
  outcome: ChainOutcome,
  input: unknown,
  options: ClaudeOutcomeOptions = {},
): ClaudeAnswer {
  const sent = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const draft: Draft = {
    event: eventOf(point, sent, options.event),
    sent,
    body: {},
    specific: {},
    notes: [],
    rewriters: rewritersOf(outcome),
    blockReason: blockReasonOf(outcome),
    injectsUsed: false,
  };
  (options.pointOutput?.[point] ?? claudePointOutput[point])?.(draft, outcome, options);
  const { event, body, specific } = draft;

  const warnings: string[] = [];
  if (outcome.injects.length > 0 && !draft.injectsUsed) {
    const hooks = hookNames(outcome.injects.map((i) => i.hook));
    if (contextEvents.has(event)) specific.additionalContext = capText(injectText(outcome.injects));
    else
      warnings.push(
        `inject from hook ${hooks} dropped: ${options.title ?? "Claude Code"} takes no context at ${event}`,
      );
  }
  const message = [...userLines(outcome), ...draft.notes].join("\n");
  if (message) body.systemMessage = capText(message);
  if (Object.keys(specific).length > 0) body.hookSpecificOutput = { hookEventName: event, ...specific };

  if (point === "turn_before" && draft.blockReason !== undefined) {
    const lines = [draft.blockReason, ...(message ? [message] : [])];
    return { exitCode: 2, stdout: "", stderr: capText(lines.join("\n")), body };
  }
  const stderr = capText(warnings.map((w) => `hookyard: warning: ${w}\n`).join(""));
  return { exitCode: 0, stdout: commandStdout(event, body), stderr, body };
}

/** Plain text where the protocol takes it as context and nothing else is said; else JSON; nothing for `{}`. */
function commandStdout(event: string, body: Record<string, unknown>): string {
  const keys = Object.keys(body);
  if (keys.length === 0) return "";
  const specific = body.hookSpecificOutput as Record<string, unknown> | undefined;
  const onlyContext =
    keys.length === 1 &&
    specific !== undefined &&
    Object.keys(specific).every((key) => key === "hookEventName" || key === "additionalContext");
  if (onlyContext && plainTextEvents.has(event)) return specific.additionalContext as string;
  return `${JSON.stringify(body)}\n`;
}

function eventOf(point: Point, sent: Record<string, unknown>, given: string | undefined): string {
  if (given !== undefined) return given;
  const named = sent.hook_event_name;
  if (typeof named === "string" && claudeEventPoint(named) === point) return named;
  return claudeEventFor(point) ?? point;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
