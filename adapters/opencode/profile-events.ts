import type { ProfileEvents } from "../profile.js";
import { opencodeEventPoint, opencodeEvents } from "./protocol/events.js";
import { opencodeUncheckedRefusal } from "./protocol/unchecked.js";

/** OpenCode's events and its refusal: what the exec client needs of the profile (adapters/profile.ts). */
export const opencodeProfileEvents: ProfileEvents = {
  name: "opencode",
  events: opencodeEvents,
  point: opencodeEventPoint,
  refusal: opencodeUncheckedRefusal,
};
