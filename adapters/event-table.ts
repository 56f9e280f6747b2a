import type { Point } from "../core/events.js";

/**
 * What each agent's events table gives: its events in the table's order (what its settings or
 * plugin route to hookyard) and the point an event fires by name, none for one it does not list.
 */
export function eventTable<const T extends Record<string, Point>>(table: T) {
  return {
    events: Object.keys(table) as Array<keyof T & string>,
    pointOf: (eventName: string): Point | undefined =>
      Object.hasOwn(table, eventName) ? table[eventName] : undefined,
  };
}
