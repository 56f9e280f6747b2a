import { serveTokenEnv } from "../../serve/defaults.js";
import { claudeEvents } from "../protocol/events.js";
import { isObject } from "./settings-file.js";

/**
 * What install-into adds is found again by a marker that that agent's settings schema allows: a
 * shell comment at the end of a command hook's command, a header on an http hook. Unknown keys
 * in a hook entry are not an option: that agent validates its settings files.
 */
const commandMarker = "# added by hookyard install-into";
const markerHeader = "X-Hookyard-Installed-By";
const markerValue = "hookyard install-into";

/** Events whose matcher is a tool name: hookyard's own matchers filter, so they take every tool. */
const toolEvents = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);

export type HookEntry = Record<string, unknown>;

export type Route = { kind: "command"; exec: string } | { kind: "http"; baseUrl: string };

/** Every event hookyard maps, each with the hook entry that routes it to hookyard. */
export function hookyardEntries(route: Route): Array<{ event: string; hook: HookEntry }> {
  return claudeEvents.map((event) => ({ event, hook: entryFor(event, route) }));
}

function entryFor(event: string, route: Route): HookEntry {
  if (route.kind === "command") {
    return { type: "command", command: `${route.exec} exec --profile claude ${event} ${commandMarker}` };
  }
  return {
    type: "http",
    url: `${route.baseUrl}/claude/${event}`,
    // That agent fills in only the env vars allowedEnvVars lists.
    headers: { Authorization: `Bearer $${serveTokenEnv}`, [markerHeader]: markerValue },
    allowedEnvVars: [serveTokenEnv],
  };
}

/** A new matcher group for one of our entries. */
export function groupFor(event: string, hook: HookEntry): Record<string, unknown> {
  return toolEvents.has(event) ? { matcher: "*", hooks: [hook] } : { hooks: [hook] };
}

/** Whether a hook entry is one install-into added (and uninstall-from may remove). */
export function isHookyardEntry(hook: unknown): boolean {
  if (!isObject(hook)) return false;
  if (hook.type === "command" && typeof hook.command === "string") {
    return hook.command.trimEnd().endsWith(commandMarker);
  }
  if (hook.type === "http" && isObject(hook.headers)) return hook.headers[markerHeader] === markerValue;
  return false;
}
