import type { Point } from "../../../core/events.js";
import { eventTable } from "../../event-table.js";

/**
 * That agent's events and the point each fires, one row each. An event not listed here (a
 * PermissionRequest, a SubagentStart, one added after this table) passes through: exit 0, no output.
 */
export const claudeEventTable = {
  PreToolUse: "tool_before",
  PostToolUse: "tool_after",
  PostToolUseFailure: "tool_error",
  UserPromptSubmit: "turn_before",
  Stop: "turn_after",
  SubagentStop: "turn_after",
  SessionStart: "agent_before",
  SessionEnd: "agent_after",
  PreCompact: "compact_before",
  Notification: "notify",
} as const satisfies Record<string, Point>;

export type ClaudeEvent = keyof typeof claudeEventTable;

/** claudeEvents: every mapped event, in the table's order: what `install-into claude` routes to hookyard. */
export const { events: claudeEvents, pointOf: claudeEventPoint } = eventTable(claudeEventTable);

/** The event that fires `point` when a ctx came from elsewhere (Stop for turn_after); none for llm_*. */
export function claudeEventFor(point: Point): ClaudeEvent | undefined {
  return claudeEvents.find((event) => claudeEventTable[event] === point);
}
