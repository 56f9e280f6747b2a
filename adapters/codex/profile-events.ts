import { uncheckedRefusal } from "../claude/protocol/unchecked.js";
import type { ProfileEvents } from "../profile.js";
import { codexEventPoint, codexEvents } from "./protocol/events.js";

/**
 * Codex's events and its refusal: what the exec client needs of the profile (adapters/profile.ts).
 * The refusal is Claude Code's (a PreToolUse deny, a prompt refused with exit 2), which Codex reads.
 */
export const codexProfileEvents: ProfileEvents = {
  name: "codex",
  events: codexEvents,
  point: codexEventPoint,
  refusal(event, why) {
    const refusal = uncheckedRefusal(event, why);
    return refusal && { stdout: refusal.stdout, stderr: refusal.stderr, exitCode: refusal.exitCode };
  },
};
