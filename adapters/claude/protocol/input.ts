import * as z from "zod";
import type { AnyCtx, Point } from "../../../core/events.js";
import { agentEndCtx, agentStartCtx, checkAgentInput } from "../../agent-input.js";
import { type ClaudeEvent, claudeEventPoint } from "./events.js";
import { resultText, resultWithoutText } from "./result-shapes.js";
import { argsFromAgent, claudeToolName } from "./tools.js";

/**
 * What a hook sees of the agent itself, as `ctx.agent`: the names it uses (its event, its tool
 * name) and the fields hookyard has no field for. Matchers read it as `agent.<key>`.
 */
export interface ClaudeAgentInfo {
  /** "claude", or the agent that speaks the same hook JSON (Codex: "codex"). */
  name: "claude" | "codex";
  /** The event as the agent names it: PreToolUse, SubagentStop, … */
  event: string;
  /** Tool events: the agent's tool name ("Edit", "mcp__github__create_issue"); ctx.tool is ours. */
  tool?: string;
  transcriptPath?: string;
  cwd?: string;
  permissionMode?: string;
  /** Stop, SubagentStop: true when the agent is already going on because a stop hook asked it to. */
  stopHookActive?: boolean;
  /** SessionStart: startup, resume, clear, compact. */
  source?: string;
  /** PreCompact: manual or auto (also ctx.reason). */
  trigger?: string;
  customInstructions?: string;
  notificationType?: string;
  /** PostToolUseFailure: the user interrupted the tool. */
  isInterrupt?: boolean;
  /**
   * PostToolUse of a tool whose result is an object with its text in known fields (Bash, a text
   * Read, WebFetch): that object with its text taken out (the text is ctx.result), so the result
   * goes back to a script written for that agent in the shape it sent (reverse.ts).
   */
  resultShape?: Record<string, unknown>;
  /** Fields of the input that none of the above holds (model, agent_id, …), as sent. */
  extra?: Record<string, unknown>;
}

const common = {
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
  permission_mode: z.string().optional(),
};
const tool = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()).default({}),
  tool_use_id: z.string().optional(),
};

/** Per point, the fields read; anything else the agent sends lands in ctx.agent.extra. */
const inputSchemas: Partial<Record<Point, z.ZodObject>> = {
  tool_before: z.looseObject({ ...common, ...tool }),
  tool_after: z.looseObject({ ...common, ...tool, tool_response: z.unknown() }),
  tool_error: z.looseObject({
    ...common,
    ...tool,
    error: z.unknown(),
    is_interrupt: z.boolean().optional(),
  }),
  turn_before: z.looseObject({ ...common, prompt: z.string().default("") }),
  turn_after: z.looseObject({
    ...common,
    stop_hook_active: z.boolean().optional(),
    last_assistant_message: z.string().optional(),
  }),
  agent_before: z.looseObject({ ...common, source: z.string().optional() }),
  agent_after: z.looseObject({ ...common, reason: z.string().optional() }),
  compact_before: z.looseObject({
    ...common,
    trigger: z.string().optional(),
    custom_instructions: z.string().nullable().optional(),
  }),
  notify: z.looseObject({
    ...common,
    message: z.string().default(""),
    notification_type: z.string().optional(),
  }),
};

export type ClaudeInputCtx = { point: Point; event: ClaudeEvent; ctx: AnyCtx } | { passthrough: true };

/**
 * An agent whose hook input is this JSON with its own table of events (Codex): its name in
 * ctx.agent.name, and the point each of its events fires (an event it lacks passes through).
 */
export interface ClaudeDialect {
  name: "claude" | "codex";
  pointOf(event: string): Point | undefined;
  /** Events named in the error for input with none. */
  examples: string;
}

const claudeDialect: ClaudeDialect = {
  name: "claude",
  pointOf: claudeEventPoint,
  examples: "PreToolUse, Stop",
};

/**
 * The agent's hook input as a ctx for the point its event fires. `eventName` (from the command
 * line or the URL) wins over the input's hook_event_name; an unmapped event passes through.
 */
export function claudeInputToCtx(
  input: unknown,
  eventName?: string,
  dialect: ClaudeDialect = claudeDialect,
): ClaudeInputCtx {
  const checked = checkAgentInput(input, eventName, {
    name: dialect.name,
    pointOf: dialect.pointOf,
    schemas: inputSchemas,
    examples: dialect.examples,
    agentFields,
  });
  if ("passthrough" in checked) return checked;
  const { event, point, data } = checked;
  const agent = checked.agent as unknown as ClaudeAgentInfo;
  return { point, event: event as ClaudeEvent, ctx: ctxFor(point, data, agent) };
}

function ctxFor(point: Point, data: Record<string, unknown>, agent: ClaudeAgentInfo): AnyCtx {
  const sessionId = data.session_id as string;
  const base = { sessionId, agent };
  if (point === "tool_before" || point === "tool_after" || point === "tool_error") {
    const name = data.tool_name as string;
    const call = {
      ...base,
      tool: claudeToolName(name),
      args: argsFromAgent(name, data.tool_input as Record<string, unknown>),
      callId: (data.tool_use_id as string | undefined) ?? "",
    };
    if (point === "tool_after") {
      const shape = resultWithoutText(name, data.tool_response);
      if (shape !== undefined) agent.resultShape = shape;
      return { ...call, result: resultText(name, data.tool_response) };
    }
    if (point === "tool_error") return { ...call, error: asText(data.error) };
    return call;
  }
  switch (point) {
    case "turn_before":
      return { ...base, prompt: data.prompt as string, history: [] };
    case "turn_after": {
      const answer = (data.last_assistant_message as string | undefined) ?? "";
      return { ...base, answer, messages: answer ? [{ role: "assistant", content: answer }] : [] };
    }
    case "agent_before":
      return agentStartCtx(base, data.cwd);
    case "agent_after":
      return agentEndCtx(base, data.reason);
    case "compact_before":
      return { ...base, messages: [], reason: (data.trigger as string | undefined) ?? "manual" };
    default:
      return { ...base, message: data.message as string, level: levelOf(data.notification_type) };
  }
}

/** The input's own fields, under the names ClaudeAgentInfo documents. */
const agentFields: Record<string, keyof ClaudeAgentInfo> = {
  tool_name: "tool",
  transcript_path: "transcriptPath",
  cwd: "cwd",
  permission_mode: "permissionMode",
  stop_hook_active: "stopHookActive",
  source: "source",
  trigger: "trigger",
  custom_instructions: "customInstructions",
  notification_type: "notificationType",
  is_interrupt: "isInterrupt",
};

/** A permission prompt needs the user; other notifications are information. */
function levelOf(type: unknown): "info" | "warning" {
  return type === "permission_prompt" ? "warning" : "info";
}

/** Tool responses and errors are often objects: hooks get them as JSON text, as matchers would. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value) ?? "";
}
