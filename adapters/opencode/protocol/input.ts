import * as z from "zod";
import type { AnyCtx, Point } from "../../../core/events.js";
import { agentEndCtx, agentStartCtx, checkAgentInput } from "../../agent-input.js";
import { type OpencodeEvent, opencodeEventPoint } from "./events.js";
import { opencodeArgsFromAgent, opencodeToolName } from "./tools.js";

/** What a hook sees of OpenCode itself, as `ctx.agent` (matchers read it as `agent.<key>`). */
export interface OpencodeAgentInfo {
  name: "opencode";
  /** The hook or event as OpenCode names it: tool.execute.before, session.created, … */
  event: string;
  /** Tool events: OpenCode's tool name (`read`, `edit`); ctx.tool is ours. */
  tool?: string;
  cwd?: string;
  /** chat.message: the agent (`build`, `plan`) and the model the prompt goes to. */
  agentName?: string;
  model?: unknown;
  /** tool.execute.after: the tool's title and metadata as OpenCode shows them. */
  title?: string;
  metadata?: unknown;
  /** Fields of the input that none of the above holds, as sent. */
  extra?: Record<string, unknown>;
}

const common = {
  session_id: z.string().min(1),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
};
const tool = {
  tool: z.string().min(1),
  call_id: z.string().default(""),
  args: z.record(z.string(), z.unknown()).default({}),
};

/**
 * Per point, the fields the plugin (integrations/opencode/) sends; anything else lands in
 * ctx.agent.extra. The input is hookyard's own plugin's, not OpenCode's: it is what that plugin
 * reads from the hook's `input` and `output` arguments.
 */
const inputSchemas: Partial<Record<Point, z.ZodObject>> = {
  tool_before: z.looseObject({ ...common, ...tool }),
  tool_after: z.looseObject({
    ...common,
    ...tool,
    output: z.string().default(""),
    title: z.string().optional(),
    metadata: z.unknown().optional(),
  }),
  turn_before: z.looseObject({
    ...common,
    prompt: z.string().default(""),
    agent: z.string().optional(),
    model: z.unknown().optional(),
  }),
  turn_after: z.looseObject({ ...common }),
  agent_before: z.looseObject({ ...common }),
  agent_after: z.looseObject({ ...common, reason: z.string().optional() }),
};

export type OpencodeInputCtx = { point: Point; event: OpencodeEvent; ctx: AnyCtx } | { passthrough: true };

/** The plugin's input as a ctx for the point its event fires; an unmapped event passes through. */
export function opencodeInputToCtx(input: unknown, eventName?: string): OpencodeInputCtx {
  const checked = checkAgentInput(input, eventName, {
    name: "opencode",
    pointOf: opencodeEventPoint,
    schemas: inputSchemas,
    examples: "tool.execute.before, chat.message",
    agentFields,
  });
  if ("passthrough" in checked) return checked;
  const { event, point, data } = checked;
  const agent = checked.agent as unknown as OpencodeAgentInfo;
  return { point, event: event as OpencodeEvent, ctx: ctxFor(point, data, agent) };
}

function ctxFor(point: Point, data: Record<string, unknown>, agent: OpencodeAgentInfo): AnyCtx {
  const base = { sessionId: data.session_id as string, agent };
  if (point === "tool_before" || point === "tool_after") {
    const name = data.tool as string;
    const call = {
      ...base,
      tool: opencodeToolName(name),
      args: opencodeArgsFromAgent(name, data.args as Record<string, unknown>),
      callId: data.call_id as string,
    };
    return point === "tool_after" ? { ...call, result: data.output as string } : call;
  }
  switch (point) {
    case "turn_before":
      return { ...base, prompt: data.prompt as string, history: [] };
    case "turn_after":
      // session.idle carries no answer: the plugin does not read the session's messages.
      return { ...base, answer: "", messages: [] };
    case "agent_before":
      return agentStartCtx(base, data.cwd);
    default:
      return agentEndCtx(base, data.reason);
  }
}

const agentFields: Record<string, keyof OpencodeAgentInfo> = {
  tool: "tool",
  cwd: "cwd",
  agent: "agentName",
  model: "model",
  title: "title",
  metadata: "metadata",
};
