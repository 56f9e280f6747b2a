import type { Point } from "../../../core/events.js";
import { eventTable } from "../../event-table.js";

/**
 * Pi's extension events that hookyard's extension (integrations/pi/) routes, and the point each
 * fires. Pi has no command hooks: the extension runs `hookyard exec --profile pi <event>` with the
 * event as JSON on stdin. Not routed: `context` and `before_provider_request` (a model call's
 * messages and payload, in Pi's own shapes, not llm_before's ctx), and compaction.
 */
export const piEventTable = {
  tool_call: "tool_before",
  tool_result: "tool_after",
  input: "turn_before",
  agent_end: "turn_after",
  session_start: "agent_before",
  session_shutdown: "agent_after",
} as const satisfies Record<string, Point>;

export type PiEvent = keyof typeof piEventTable;

/** piEvents: every mapped event, in the table's order: what the extension routes to hookyard. */
export const { events: piEvents, pointOf: piEventPoint } = eventTable(piEventTable);

/** Events at which Pi acts on the answer before anything happens: a tool call, a prompt. */
export const piBlockableEvents: ReadonlySet<string> = new Set(["tool_call", "input"]);
