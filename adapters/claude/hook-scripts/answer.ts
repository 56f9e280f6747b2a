import { RunnerError } from "../../../core/errors.js";
import { type AnyCtx, blockable, type Point } from "../../../core/events.js";
import type { Decision } from "../../../core/hook.js";
import type { ProcessResult } from "../../../runner/engines/command-process.js";
import { exitText } from "../../../runner/engines/command-process.js";
import { claudeAgentOf } from "../protocol/reverse.js";
import { outputCap } from "../protocol/text.js";
import { agentToolName, argsFromAgent } from "../protocol/tools.js";

type Json = Record<string, unknown>;

/**
 * Reads a script's exit code and output by that agent's rules, as one of our decisions:
 * - exit 2: stderr is the reason: a block where the point blocks, a `continue` at turn_after (that
 *   agent's Stop), context for the model after a tool, a notice elsewhere; stdout is ignored.
 * - stdout starting with `{`: that agent's JSON answer (see fromAgentJson). On exit 0, and also on
 *   another non-zero exit when it is valid JSON (the rule; that agent itself ignores it).
 * - exit 0 with plain text: context for the model where that agent takes it (UserPromptSubmit,
 *   SessionStart), ignored elsewhere.
 * - any other exit, or a kill: a hook failure (logged; the hook's onError decides).
 */
export function claudeAnswer(
  point: Point,
  ctx: AnyCtx,
  result: ProcessResult,
  hook: string,
  note: (message: string) => void,
): Decision | undefined {
  if (result.code === 2) return exitTwo(point, cap(result.stderr.trim()), hook);
  const json = jsonAnswer(result, hook);
  if (result.code !== 0) {
    if (json === undefined || result.code === null) {
      throw new RunnerError("RUN_ERR_COMMAND_FAILED", exitText(result), { hook });
    }
    note(`exited with code ${result.code}, but its stdout is a JSON answer: it is used`);
  }
  if (json !== undefined) return fromAgentJson(point, ctx, json, hook);
  const text = cap(result.stdout.trim());
  if (text !== "" && (point === "turn_before" || point === "agent_before")) return { inject: text };
  return undefined;
}

function exitTwo(point: Point, reason: string, hook: string): Decision | undefined {
  const orDefault = reason || `blocked by command hook "${hook}" (exit 2, no reason given)`;
  if (blockable(point)) return { block: orDefault };
  if (point === "turn_after") return { continue: orDefault };
  if (reason === "") return undefined;
  return point === "tool_after" || point === "tool_error" ? { inject: reason } : { notice: reason };
}

/** The JSON object on stdout, or undefined when stdout is not one. */
function jsonAnswer(result: ProcessResult, hook: string): Json | undefined {
  const trimmed = result.stdout.trim();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return JSON.parse(trimmed) as Json;
  } catch (error) {
    if (result.code !== 0) return undefined;
    throw new RunnerError("RUN_ERR_COMMAND_FAILED", "stdout starts with { but is not valid JSON", {
      hook,
      cause: error,
    });
  }
}

/**
 * That agent's JSON answer as our decision. `continue: false` wins over everything else: a block
 * where the point blocks, elsewhere a notice with its stopReason (our agent cannot be stopped from
 * there). Otherwise: permissionDecision deny/ask and updatedInput (PreToolUse), `decision: "block"`
 * (a block at UserPromptSubmit, a continue at Stop, context after a tool), additionalContext
 * (context), systemMessage (a notice), updatedToolOutput (the tool result).
 */
function fromAgentJson(point: Point, ctx: AnyCtx, answer: Json, hook: string): Decision | undefined {
  if (answer.continue === false) {
    const reason = text(answer.stopReason) ?? `hook "${hook}" asked to stop (continue: false)`;
    return blockable(point) ? { block: reason } : { notice: reason };
  }
  const specific = isObject(answer.hookSpecificOutput) ? answer.hookSpecificOutput : {};
  const decision: Decision = {};
  const context: string[] = [];
  const reason = text(answer.reason);
  const blocks = answer.decision === "block";
  const fallback = `hook "${hook}" decided so without a reason`;
  switch (point) {
    case "tool_before": {
      // The older top-level form (decision "block"/"approve") still works there.
      const permission = specific.permissionDecision ?? (blocks ? "deny" : undefined);
      const why = text(specific.permissionDecisionReason) ?? reason;
      if (permission === "deny") decision.block = why ?? fallback;
      else if (permission === "ask") decision.ask = why ?? fallback;
      if (isObject(specific.updatedInput)) {
        // The whole object, with that agent's field names made ours (file_path is our path).
        const tool = agentToolName(String(ctx.tool), claudeAgentOf(ctx)?.tool);
        decision.rewrite = { args: { ...argsFromAgent(tool, specific.updatedInput) } };
      }
      break;
    }
    case "turn_before":
      if (blocks) decision.block = reason ?? fallback;
      break;
    case "turn_after":
      if (blocks) decision.continue = reason ?? fallback;
      break;
    case "tool_after":
    case "tool_error": {
      if (blocks && reason) context.push(reason);
      const output = specific.updatedToolOutput ?? specific.updatedMCPToolOutput;
      if (point === "tool_after" && output !== undefined) {
        decision.rewrite = { result: cap(typeof output === "string" ? output : JSON.stringify(output)) };
      }
      break;
    }
  }
  const added = text(specific.additionalContext);
  if (added) context.push(added);
  if (context.length > 0) decision.inject = cap(context.join("\n\n"));
  const message = text(answer.systemMessage);
  if (message) decision.notice = message;
  return Object.keys(decision).length > 0 ? decision : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? cap(value) : undefined;
}

/** Every string taken from the script is cut at that agent's cap on hook output. */
function cap(value: string): string {
  return value.length > outputCap ? value.slice(0, outputCap) : value;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
