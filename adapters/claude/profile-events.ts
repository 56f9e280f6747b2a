import type { ProfileEvents } from "../profile.js";
import { claudeEventPoint, claudeEvents } from "./protocol/events.js";
import { uncheckedRefusal } from "./protocol/unchecked.js";

/** Claude Code's events and its refusal: what the exec client needs of the profile (adapters/profile.ts). */
export const claudeProfileEvents: ProfileEvents = {
  name: "claude",
  events: claudeEvents,
  point: claudeEventPoint,
  refusal(event, why) {
    const refusal = uncheckedRefusal(event, why);
    return refusal && { stdout: refusal.stdout, stderr: refusal.stderr, exitCode: refusal.exitCode };
  },
};
