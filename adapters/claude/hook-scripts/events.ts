import { points } from "../../../core/events.js";
import { claudeEventFor } from "../protocol/events.js";

/** Points a `profile: "claude"` hook may list: those that one of that agent's events fires (not llm_*). */
export const claudeProfilePoints = points.filter((point) => claudeEventFor(point) !== undefined);

/**
 * The input field that event's matcher is tested on, as that agent does it; undefined where that
 * agent ignores matchers (the hook then always runs).
 */
export function matcherFieldOf(event: string): string | undefined {
  switch (event) {
    case "PreToolUse":
    case "PostToolUse":
    case "PostToolUseFailure":
      return "tool_name";
    case "SessionStart":
      return "source";
    case "SessionEnd":
      return "reason";
    case "PreCompact":
      return "trigger";
    case "Notification":
      return "notification_type";
    default:
      return undefined;
  }
}
