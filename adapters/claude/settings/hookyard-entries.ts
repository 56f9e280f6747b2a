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

/**
 * `exec` is the command that runs hookyard (node and its bin, quoted): the command route's, and
 * the http route's at the events that agent calls no http hook at.
 */
export type Route = { kind: "command"; exec: string } | { kind: "http"; baseUrl: string; exec: string };

/**
 * Events at which that agent skips http hooks ("HTTP hooks are not supported for SessionStart",
 * Claude Code 2.1.334; Setup too, which hookyard does not map): an http install routes them to
 * `hookyard exec` instead, or they would never reach hookyard.
 */
export const httpUnsupportedEvents: ReadonlySet<string> = new Set(["SessionStart"]);

/**
 * That agent's hook `timeout`, in seconds, on each SessionEnd entry. It gives SessionEnd hooks
 * 1.5 s in all unless one asks for more (the largest `timeout` of its SessionEnd hooks, capped at
 * 60 s), and cancels what is still running then: a first event that loads the hooks itself (no
 * daemon yet) takes longer than that on a busy machine. Ten seconds is also all a hung hook can
 * hold up the agent's exit.
 */
export const sessionEndTimeoutSeconds = 10;

/** Every event hookyard maps, each with the hook entry that routes it to hookyard. */
export function hookyardEntries(route: Route): Array<{ event: string; hook: HookEntry }> {
  return claudeEvents.map((event) => ({ event, hook: entryFor(event, route) }));
}

/**
 * Events at which that agent reads exit 2 as a refusal (the tool call, the prompt) but any other
 * failure as a non-blocking error, and goes on. `hookyard exec` answers 0 or 2 there itself; a node
 * that cannot run hookyard (its bin moved or deleted: exit 1; node gone: 127) would let the call
 * through, so `|| exit 2` turns that into a refusal, with node's own error as the reason.
 */
export const failClosedEvents: ReadonlySet<string> = new Set(["PreToolUse", "UserPromptSubmit"]);

function entryFor(event: string, route: Route): HookEntry {
  const timeout = event === "SessionEnd" ? { timeout: sessionEndTimeoutSeconds } : {};
  if (route.kind === "command" || httpUnsupportedEvents.has(event)) {
    const failClosed = failClosedEvents.has(event) ? " || exit 2" : "";
    return {
      type: "command",
      command: `${route.exec} exec --profile claude ${event}${failClosed} ${commandMarker}`,
      ...timeout,
    };
  }
  return {
    type: "http",
    url: `${route.baseUrl}/claude/${event}`,
    // That agent fills in only the env vars allowedEnvVars lists.
    headers: { Authorization: `Bearer $${serveTokenEnv}`, [markerHeader]: markerValue },
    allowedEnvVars: [serveTokenEnv],
    ...timeout,
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
