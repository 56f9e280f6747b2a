import type { Point } from "../../../core/events.js";
import { eventTable } from "../../event-table.js";

/**
 * Codex's hook events (`.codex/hooks.json`, Codex 0.171) and the point each fires. Its names and
 * input are Claude Code's; it has fewer of them. Not listed, so passed through (exit 0, nothing
 * said): PermissionRequest (an approval prompt, which hookyard's guards already decided at
 * PreToolUse), PostCompact, SubagentStart and SubagentStop.
 */
export const codexEventTable = {
  PreToolUse: "tool_before",
  PostToolUse: "tool_after",
  UserPromptSubmit: "turn_before",
  Stop: "turn_after",
  SessionStart: "agent_before",
  SessionEnd: "agent_after",
  PreCompact: "compact_before",
} as const satisfies Record<string, Point>;

export type CodexEvent = keyof typeof codexEventTable;

/** codexEvents: every mapped event, in the table's order: what `install-into codex` routes to hookyard. */
export const { events: codexEvents, pointOf: codexEventPoint } = eventTable(codexEventTable);

/** Events at which Codex acts on the answer before anything happens (a tool call, a prompt). */
export const codexBlockableEvents: ReadonlySet<string> = new Set(["PreToolUse", "UserPromptSubmit"]);
