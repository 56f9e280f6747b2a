import * as z from "zod";
import type { AnyCtx, Point } from "../../../core/events.js";
import { agentEndCtx, agentStartCtx, checkAgentInput } from "../../agent-input.js";
import { type GeminiEvent, geminiEventPoint } from "./events.js";
import { geminiArgsFromAgent, geminiToolName } from "./tools.js";

/** What a hook sees of Gemini CLI itself, as `ctx.agent` (matchers read it as `agent.<key>`). */
export interface GeminiAgentInfo {
  name: "gemini";
  /** The event as the agent names it: BeforeTool, AfterAgent, … */
  event: string;
  /** Tool events: the agent's tool name (`run_shell_command`, `replace`); ctx.tool is ours. */
  tool?: string;
  transcriptPath?: string;
  cwd?: string;
  /** AfterAgent: true when the agent is already retrying because a hook asked it to. */
  stopHookActive?: boolean;
  /** SessionStart: startup, resume, clear. */
  source?: string;
  /** PreCompress: manual or auto (also ctx.reason). */
  trigger?: string;
  notificationType?: string;
  /** AfterAgent: the prompt the turn answered. */
  prompt?: string;
  /** AfterTool: what the tool shows the user (`returnDisplay`), when it is not the model's text. */
  returnDisplay?: unknown;
  /** Fields of the input that none of the above holds (timestamp, mcp_context, details, …), as sent. */
  extra?: Record<string, unknown>;
}

const common = {
  session_id: z.string().min(1),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
};
const tool = {
  tool_name: z.string().min(1),
  tool_input: z.record(z.string(), z.unknown()).default({}),
};

/** Per point, the fields read; anything else the agent sends lands in ctx.agent.extra. */
const inputSchemas: Partial<Record<Point, z.ZodObject>> = {
  tool_before: z.looseObject({ ...common, ...tool }),
  tool_after: z.looseObject({ ...common, ...tool, tool_response: z.unknown() }),
  turn_before: z.looseObject({ ...common, prompt: z.string().default("") }),
  turn_after: z.looseObject({
    ...common,
    prompt: z.string().optional(),
    prompt_response: z.string().optional(),
    stop_hook_active: z.boolean().optional(),
  }),
  agent_before: z.looseObject({ ...common, source: z.string().optional() }),
  agent_after: z.looseObject({ ...common, reason: z.string().optional() }),
  compact_before: z.looseObject({ ...common, trigger: z.string().optional() }),
  notify: z.looseObject({
    ...common,
    message: z.string().default(""),
    notification_type: z.string().optional(),
  }),
};

export type GeminiInputCtx = { point: Point; event: GeminiEvent; ctx: AnyCtx } | { passthrough: true };

/**
 * The agent's hook input as a ctx for the point its event fires. `eventName` (from the command
 * line) wins over hook_event_name; an unmapped event passes through. An AfterTool whose
 * `tool_response` holds an `error` fires tool_error (that agent has no event of its own for it).
 */
export function geminiInputToCtx(input: unknown, eventName?: string): GeminiInputCtx {
  const checked = checkAgentInput(input, eventName, {
    name: "gemini",
    pointOf: geminiEventPoint,
    schemas: inputSchemas,
    examples: "BeforeTool, AfterAgent",
    agentFields,
  });
  if ("passthrough" in checked) return checked;
  const { event, point, data } = checked;
  const agent = checked.agent as unknown as GeminiAgentInfo;
  if (event === "AfterAgent" && typeof data.prompt === "string") agent.prompt = data.prompt;
  const failed = point === "tool_after" ? toolError(data.tool_response) : undefined;
  const at: Point = failed === undefined ? point : "tool_error";
  return { point: at, event: event as GeminiEvent, ctx: ctxFor(at, data, agent, failed) };
}

function ctxFor(point: Point, data: Record<string, unknown>, agent: GeminiAgentInfo, error?: string): AnyCtx {
  const base = { sessionId: data.session_id as string, agent };
  if (point === "tool_before" || point === "tool_after" || point === "tool_error") {
    const name = data.tool_name as string;
    const call = {
      ...base,
      tool: geminiToolName(name),
      args: geminiArgsFromAgent(name, data.tool_input as Record<string, unknown>),
      callId: "",
    };
    if (point === "tool_error") return { ...call, error: error ?? "" };
    if (point === "tool_after") {
      const response = data.tool_response as { llmContent?: unknown; returnDisplay?: unknown } | undefined;
      const result = contentText(response?.llmContent);
      if (response?.returnDisplay !== undefined && response.returnDisplay !== result) {
        agent.returnDisplay = response.returnDisplay;
      }
      return { ...call, result };
    }
    return call;
  }
  switch (point) {
    case "turn_before":
      return { ...base, prompt: data.prompt as string, history: [] };
    case "turn_after": {
      const answer = (data.prompt_response as string | undefined) ?? "";
      return { ...base, answer, messages: answer ? [{ role: "assistant", content: answer }] : [] };
    }
    case "agent_before":
      return agentStartCtx(base, data.cwd);
    case "agent_after":
      return agentEndCtx(base, data.reason);
    case "compact_before":
      return { ...base, messages: [], reason: (data.trigger as string | undefined) ?? "manual" };
    default:
      return { ...base, message: data.message as string, level: "info" };
  }
}

/** A tool's `llmContent` as text: a string as is, parts' text joined, anything else as JSON. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === undefined || content === null) return "";
  const parts = Array.isArray(content) ? content : [content];
  if (
    parts.every((part) => typeof part === "string" || typeof (part as { text?: unknown })?.text === "string")
  ) {
    return parts.map((part) => (typeof part === "string" ? part : (part as { text: string }).text)).join("");
  }
  return JSON.stringify(content) ?? "";
}

/** The tool's error, as text, when its response holds one. */
function toolError(response: unknown): string | undefined {
  if (typeof response !== "object" || response === null) return undefined;
  const error = (response as { error?: unknown }).error;
  if (error === undefined || error === null) return undefined;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : (JSON.stringify(error) ?? "");
}

const agentFields: Record<string, keyof GeminiAgentInfo> = {
  tool_name: "tool",
  transcript_path: "transcriptPath",
  cwd: "cwd",
  stop_hook_active: "stopHookActive",
  source: "source",
  trigger: "trigger",
  notification_type: "notificationType",
};
