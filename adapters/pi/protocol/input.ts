import * as z from "zod";
import type { AnyCtx, Point } from "../../../core/events.js";
import { agentEndCtx, agentStartCtx, checkAgentInput } from "../../agent-input.js";
import { type PiEvent, piEventPoint } from "./events.js";
import { piToolName } from "./tools.js";

/** What a hook sees of Pi itself, as `ctx.agent` (matchers read it as `agent.<key>`). */
export interface PiAgentInfo {
  name: "pi";
  /** The event as Pi names it: tool_call, agent_end, … */
  event: string;
  /** Tool events: Pi's tool name (`read`, `edit`); ctx.tool is ours. */
  tool?: string;
  cwd?: string;
  /** session_start and session_shutdown: why (startup, reload, new, resume, fork, quit). */
  reason?: string;
  /** input: where the prompt came from (interactive, rpc, extension). */
  source?: string;
  /** agent_end: true when this run was started by a continue a hook asked for. */
  continued?: boolean;
  /** tool_result: the parts of the result that are not text (images), as sent. */
  otherContent?: unknown[];
  /** Fields of the input that none of the above holds, as sent. */
  extra?: Record<string, unknown>;
}

const common = {
  session_id: z.string().min(1),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
};
const tool = {
  toolName: z.string().min(1),
  toolCallId: z.string().default(""),
  input: z.record(z.string(), z.unknown()).default({}),
};
const content = z.array(z.looseObject({ type: z.string() })).default([]);

/** Per point, the fields read (Pi's own names, as its event carries them); the rest lands in ctx.agent.extra. */
const inputSchemas: Partial<Record<Point, z.ZodObject>> = {
  tool_before: z.looseObject({ ...common, ...tool }),
  tool_after: z.looseObject({ ...common, ...tool, content, isError: z.boolean().default(false) }),
  turn_before: z.looseObject({ ...common, text: z.string().default(""), source: z.string().optional() }),
  turn_after: z.looseObject({
    ...common,
    messages: z.array(z.looseObject({ role: z.string() })).default([]),
    continued: z.boolean().optional(),
  }),
  agent_before: z.looseObject({ ...common, reason: z.string().optional() }),
  agent_after: z.looseObject({ ...common, reason: z.string().optional() }),
};

export type PiInputCtx = { point: Point; event: PiEvent; ctx: AnyCtx } | { passthrough: true };

/**
 * The extension's event as a ctx for the point it fires. `eventName` (from the command line) wins
 * over hook_event_name; an unmapped event passes through. A tool_result with `isError` fires
 * tool_error (Pi has no event of its own for a failed tool).
 */
export function piInputToCtx(input: unknown, eventName?: string): PiInputCtx {
  const checked = checkAgentInput(input, eventName, {
    name: "pi",
    pointOf: piEventPoint,
    schemas: inputSchemas,
    examples: "tool_call, agent_end",
    agentFields,
  });
  if ("passthrough" in checked) return checked;
  const { event, point, data } = checked;
  const agent = checked.agent as unknown as PiAgentInfo;
  const at: Point = point === "tool_after" && data.isError === true ? "tool_error" : point;
  return { point: at, event: event as PiEvent, ctx: ctxFor(at, data, agent) };
}

function ctxFor(point: Point, data: Record<string, unknown>, agent: PiAgentInfo): AnyCtx {
  const base = { sessionId: data.session_id as string, agent };
  if (point === "tool_before" || point === "tool_after" || point === "tool_error") {
    const call = {
      ...base,
      tool: piToolName(data.toolName as string),
      args: data.input as Record<string, unknown>,
      callId: data.toolCallId as string,
    };
    if (point === "tool_before") return call;
    const parts = data.content as Array<Record<string, unknown>>;
    const others = parts.filter((part) => part.type !== "text");
    if (others.length > 0) agent.otherContent = others;
    const text = partsText(parts);
    return point === "tool_error" ? { ...call, error: text } : { ...call, result: text };
  }
  switch (point) {
    case "turn_before":
      return { ...base, prompt: data.text as string, history: [] };
    case "turn_after": {
      const messages = piMessages(data.messages as Array<Record<string, unknown>>);
      const last = [...messages].reverse().find((m) => m.role === "assistant");
      return { ...base, answer: last?.content ?? "", messages };
    }
    case "agent_before":
      return agentStartCtx(base, data.cwd);
    default:
      return agentEndCtx(base, data.reason);
  }
}

/** The text parts of Pi's content (a string, or parts), joined. */
export function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (part): part is { type: "text"; text: string } =>
        part?.type === "text" && typeof part.text === "string",
    )
    .map((part) => part.text)
    .join("");
}

/** Pi's messages as ours: user and assistant text; a tool result as a `tool` message. */
function piMessages(messages: Array<Record<string, unknown>>): Array<{ role: string; content: string }> {
  const roles: Record<string, string> = { user: "user", assistant: "assistant", toolResult: "tool" };
  return messages
    .filter((m) => Object.hasOwn(roles, m.role as string))
    .map((m) => ({ role: roles[m.role as string] as string, content: partsText(m.content) }));
}

const agentFields: Record<string, keyof PiAgentInfo> = {
  toolName: "tool",
  cwd: "cwd",
  reason: "reason",
  source: "source",
  continued: "continued",
};
