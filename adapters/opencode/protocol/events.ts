import type { Point } from "../../../core/events.js";
import { eventTable } from "../../event-table.js";

/**
 * OpenCode's plugin hooks and events (1.18) that hookyard's plugin routes, and the point each
 * fires. The names are OpenCode's own: a hook (`tool.execute.before`), a bus event
 * (`session.created`), and `dispose`, the plugin's teardown when the instance ends (OpenCode has no
 * session-end event in a `run`; the plugin sends the sessions it saw). Its other hooks (chat.params,
 * the experimental transforms, permission.ask, …) are not routed: no point promises what they hold.
 */
export const opencodeEventTable = {
  "tool.execute.before": "tool_before",
  "tool.execute.after": "tool_after",
  "chat.message": "turn_before",
  "session.created": "agent_before",
  "session.idle": "turn_after",
  dispose: "agent_after",
} as const satisfies Record<string, Point>;

export type OpencodeEvent = keyof typeof opencodeEventTable;

/** opencodeEvents: every routed event, in the table's order: what the plugin sends to `hookyard exec`. */
export const { events: opencodeEvents, pointOf: opencodeEventPoint } = eventTable(opencodeEventTable);

/**
 * Events at which OpenCode waits for the plugin and a thrown error stops what was about to happen:
 * the tool does not run (the error is its result to the model), the prompt reaches no model.
 */
export const opencodeBlockableEvents: ReadonlySet<string> = new Set(["tool.execute.before", "chat.message"]);
