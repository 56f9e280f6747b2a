import type { ProfileEvents } from "../profile.js";
import { piEventPoint, piEvents } from "./protocol/events.js";
import { piUncheckedRefusal } from "./protocol/unchecked.js";

/** Pi's events and its refusal: what the exec client needs of the profile (adapters/profile.ts). */
export const piProfileEvents: ProfileEvents = {
  name: "pi",
  events: piEvents,
  point: piEventPoint,
  refusal: piUncheckedRefusal,
};
