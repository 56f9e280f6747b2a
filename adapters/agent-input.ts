import type * as z from "zod";
import { describeIssues } from "../core/errors.js";
import type { Point } from "../core/events.js";
import { jsonDataIssue } from "../core/json-data.js";
import { AgentInputError } from "./agent-input-error.js";

/**
 * One agent's hook input, checked: its event, the point it fires, the fields its schema read, and
 * `ctx.agent`: the agent's name and event, the fields it names (under ctx.agent's own names; a
 * null one left out), and under `extra` every field no schema read.
 */
export type CheckedInput =
  | { event: string; point: Point; data: Record<string, unknown>; agent: Record<string, unknown> }
  | { passthrough: true };

/**
 * What every agent's input goes through before its profile maps it: a JSON object of plain data
 * (before anything copies or prints it: a value nested thousands deep would overflow the stack
 * there), its event (`eventName`, from the command line or the URL, wins over hook_event_name), an
 * unmapped event passed through, and the point's schema. Every failure is an AgentInputError.
 */
export function checkAgentInput(
  input: unknown,
  eventName: string | undefined,
  agent: {
    /** ctx.agent.name. */
    name: string;
    pointOf(event: string): Point | undefined;
    schemas: Partial<Record<Point, z.ZodObject>>;
    /** Two of its event names, for the message when none is given. */
    examples: string;
    /** The input's fields that ctx.agent names, each under ctx.agent's name for it. */
    agentFields: Record<string, string>;
  },
): CheckedInput {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new AgentInputError("the hook input is not a JSON object");
  }
  const issue = jsonDataIssue(input, "input");
  if (issue) throw new AgentInputError(`the hook input is not plain JSON data (${issue})`);
  const named = (input as { hook_event_name?: unknown }).hook_event_name;
  const event = eventName ?? (typeof named === "string" ? named : undefined);
  if (event === undefined) {
    throw new AgentInputError(`no event: name it (${agent.examples}, …) or send hook_event_name`);
  }
  const point = agent.pointOf(event);
  if (point === undefined) return { passthrough: true };
  const schema = agent.schemas[point] as z.ZodObject;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new AgentInputError(`the ${event} input is invalid: ${describeIssues(parsed.error)}`);
  }
  const data = parsed.data as Record<string, unknown>;
  return { event, point, data, agent: agentInfo(agent.name, event, data, schema, agent.agentFields) };
}

function agentInfo(
  name: string,
  event: string,
  data: Record<string, unknown>,
  schema: z.ZodObject,
  agentFields: Record<string, string>,
): Record<string, unknown> {
  const info: Record<string, unknown> = { name, event };
  for (const [field, key] of Object.entries(agentFields)) {
    if (data[field] !== undefined && data[field] !== null) info[key] = data[field];
  }
  const extra = Object.entries(data).filter(([field]) => !Object.hasOwn(schema.shape, field));
  if (extra.length > 0) info.extra = Object.fromEntries(extra);
  return info;
}

/** agent_before's ctx from an agent's session start: no agent tells its config or depth. */
export function agentStartCtx<B extends object>(base: B, cwd: unknown) {
  return { ...base, cwd: (cwd as string | undefined) ?? "", config: {}, depth: 0 };
}

/** agent_after's ctx from an agent's session end: no agent counts its turns and calls, so zeros rather than a guess. */
export function agentEndCtx<B extends object>(base: B, reason: unknown) {
  return {
    ...base,
    reason: (reason as string | undefined) ?? "other",
    stats: { turns: 0, modelCalls: 0, toolCalls: 0, durationMs: 0 },
  };
}
