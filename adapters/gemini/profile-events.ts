import type { ProfileEvents } from "../profile.js";
import { geminiEventPoint, geminiEvents } from "./protocol/events.js";
import { geminiUncheckedRefusal } from "./protocol/unchecked.js";

/** Gemini CLI's events and its refusal: what the exec client needs of the profile (adapters/profile.ts). */
export const geminiProfileEvents: ProfileEvents = {
  name: "gemini",
  events: geminiEvents,
  point: geminiEventPoint,
  refusal: geminiUncheckedRefusal,
};
