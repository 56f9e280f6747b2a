import type { AnyCtx, Point } from "../../../core/events.js";
import { claudeEventFor, claudeEventPoint } from "./events.js";
import type { ClaudeAgentInfo } from "./input.js";
import { resultWithText } from "./result-shapes.js";
import { agentToolName, argsToAgent } from "./tools.js";

export interface ClaudeInputDefaults {
  /** The project directory, when the ctx does not say (it came from hookyard's own loop). */
  cwd: string;
  transcriptPath?: string;
  permissionMode?: string;
}

/**
 * A ctx as that agent's hook input, so a script written for its protocol runs under hookyard
 * unchanged: the inverse of claudeInputToCtx. What ctx.agent kept (a ctx that came from that
 * agent) is given back as it was; otherwise the point's event and that agent's defaults are used.
 * Undefined at the points that agent has no event for (llm_before, llm_after).
 */
export function claudeInputFromCtx(
  point: Point,
  ctx: AnyCtx,
  defaults: ClaudeInputDefaults,
): Record<string, unknown> | undefined {
  const agent = claudeAgentOf(ctx);
  const event =
    agent !== undefined && claudeEventPoint(agent.event) === point ? agent.event : claudeEventFor(point);
  if (event === undefined) return undefined;
  const input: Record<string, unknown> = {
    ...agent?.extra,
    session_id: ctx.sessionId,
    transcript_path: agent?.transcriptPath ?? defaults.transcriptPath ?? "",
    cwd: agent?.cwd ?? defaults.cwd,
    permission_mode: agent?.permissionMode ?? defaults.permissionMode ?? "default",
    hook_event_name: event,
  };
  switch (point) {
    case "tool_before":
    case "tool_after":
    case "tool_error": {
      const name = agentToolName(ctx.tool as string, agent?.tool);
      input.tool_name = name;
      input.tool_input = argsToAgent(name, ctx.args as Record<string, unknown>);
      input.tool_use_id = ctx.callId;
      if (point === "tool_after") input.tool_response = responseOf(ctx.result as string, agent);
      if (point === "tool_error") {
        input.error = ctx.error;
        if (agent?.isInterrupt !== undefined) input.is_interrupt = agent.isInterrupt;
      }
      break;
    }
    case "turn_before":
      input.prompt = ctx.prompt;
      break;
    case "turn_after":
      input.stop_hook_active = agent?.stopHookActive ?? false;
      input.last_assistant_message = ctx.answer;
      break;
    case "agent_before":
      input.source = agent?.source ?? "startup";
      break;
    case "agent_after":
      input.reason = ctx.reason;
      break;
    case "compact_before":
      input.trigger = agent?.trigger ?? (ctx.reason === "manual" ? "manual" : "auto");
      input.custom_instructions = agent?.customInstructions ?? "";
      break;
    case "notify":
      input.message = ctx.message;
      if (agent?.notificationType !== undefined) input.notification_type = agent.notificationType;
      break;
  }
  return input;
}

/** ctx.agent when that agent put it there. */
export function claudeAgentOf(ctx: AnyCtx): ClaudeAgentInfo | undefined {
  const agent = ctx.agent as Partial<ClaudeAgentInfo> | undefined;
  return agent?.name === "claude" && typeof agent.event === "string" ? (agent as ClaudeAgentInfo) : undefined;
}

/**
 * The agent sent an object: one whose text hookyard took out goes back in its shape with ctx.result
 * as its text; any other, handed on as JSON text, goes back as the object.
 */
function responseOf(result: string, agent: ClaudeAgentInfo | undefined): unknown {
  if (agent?.resultShape !== undefined && agent.tool !== undefined) {
    return resultWithText(agent.tool, agent.resultShape, result);
  }
  if (agent === undefined || !/^\s*[[{]/.test(result)) return result;
  try {
    return JSON.parse(result) as unknown;
  } catch {
    return result;
  }
}
