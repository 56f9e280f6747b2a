import type { HookEntry, Route } from "../../claude/settings/hookyard-entries.js";
import { isObject } from "../../claude/settings/settings-file.js";
import { geminiBlockableEvents, geminiEvents } from "../protocol/events.js";

/**
 * What install-into adds to `.gemini/settings.json` is found again by a shell comment at the end
 * of the command (that agent runs it through the shell, which ignores it) and is named "hookyard"
 * in its /hooks panel. That agent fingerprints a project's hooks by name and command: one that
 * changes (install-into run again from another path) is reported as new when it next starts.
 */
const commandMarker = "# added by hookyard install-into gemini";
const entryName = "hookyard";

/** Events whose matcher is a tool name (a regex there): hookyard's own matchers filter, so every tool. */
const toolEvents = new Set(["BeforeTool", "AfterTool"]);

/**
 * That agent's hook `timeout`, in milliseconds (its default is 60 000): a first event that loads
 * the hooks itself (no daemon yet) on a busy machine takes seconds, a hung one holds the agent
 * up no longer than this.
 */
export const geminiHookTimeoutMs = 30_000;

/**
 * At the events that agent can block, any failure to answer is a refusal: it reads exit 2 as a
 * block (stderr the reason) but exit 1 as a warning, and goes on. `hookyard exec` itself answers 0
 * or 2 there; a node that starts but cannot run hookyard (its bin moved or deleted) exits 1, which
 * `|| exit 2` turns into a deny. (A node that is gone is the shell's 127, which it reads as a block.)
 */
const failClosed = " || exit 2";

/** Every event hookyard maps, each with the command entry that routes it to `hookyard exec`. */
export function geminiHookyardEntries(route: Route): Array<{ event: string; hook: HookEntry }> {
  return geminiEvents.map((event) => ({
    event,
    hook: {
      name: entryName,
      type: "command",
      command: `${route.exec} exec --profile gemini ${event}${geminiBlockableEvents.has(event) ? failClosed : ""} ${commandMarker}`,
      timeout: geminiHookTimeoutMs,
    },
  }));
}

export function geminiGroupFor(event: string, hook: HookEntry): Record<string, unknown> {
  return toolEvents.has(event) ? { matcher: "*", hooks: [hook] } : { hooks: [hook] };
}

export function isGeminiHookyardEntry(hook: unknown): boolean {
  return (
    isObject(hook) &&
    hook.type === "command" &&
    typeof hook.command === "string" &&
    hook.command.trimEnd().endsWith(commandMarker)
  );
}
