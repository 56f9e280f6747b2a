import type { Point } from "../../../core/events.js";
import { eventTable } from "../../event-table.js";

/**
 * Gemini CLI's hook events and the point each fires, one row each. An event not listed here
 * passes through (exit 0, no output): BeforeToolSelection (a tool filter, no point has it), and
 * BeforeModel and AfterModel, whose input (`llm_request`: text-only messages, no tool list, no
 * system prompt; `llm_response` one streamed chunk at a time) does not hold what llm_before and
 * llm_after's ctx needs, nor could a rewrite of those fields go back whole.
 */
export const geminiEventTable = {
  BeforeTool: "tool_before",
  AfterTool: "tool_after",
  BeforeAgent: "turn_before",
  AfterAgent: "turn_after",
  SessionStart: "agent_before",
  SessionEnd: "agent_after",
  PreCompress: "compact_before",
  Notification: "notify",
} as const satisfies Record<string, Point>;

export type GeminiEvent = keyof typeof geminiEventTable;

/** geminiEvents: every mapped event, in the table's order: what `install-into gemini` routes to hookyard. */
export const { events: geminiEvents, pointOf: geminiEventPoint } = eventTable(geminiEventTable);

/** Events at which Gemini CLI acts on the answer before anything happens (a tool call, a prompt). */
export const geminiBlockableEvents: ReadonlySet<string> = new Set(["BeforeTool", "BeforeAgent"]);
