import type * as z from "zod";
import { describeIssues } from "../core/errors.js";
import type { Point } from "../core/events.js";
import { jsonDataIssue } from "../core/json-data.js";
import { AgentInputError } from "./agent-input-error.js";

/** One agent's hook input, checked: its event, the point it fires, the fields its schema read. */
export type CheckedInput =
  | { event: string; point: Point; data: Record<string, unknown>; fields: string[] }
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
    pointOf(event: string): Point | undefined;
    schemas: Partial<Record<Point, z.ZodObject>>;
    /** Two of its event names, for the message when none is given. */
    examples: string;
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
  return { event, point, data: parsed.data as Record<string, unknown>, fields: Object.keys(schema.shape) };
}
