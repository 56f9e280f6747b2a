import type { HookEntry, Route } from "../../claude/settings/hookyard-entries.js";
import { isObject } from "../../claude/settings/settings-file.js";
import { codexBlockableEvents, codexEvents } from "../protocol/events.js";

/**
 * What install-into adds to `.codex/hooks.json` is found again by a shell comment at the end of
 * the command (Codex runs it with `sh -c`, which ignores it). No matcher: Codex reads one as a
 * regex (Claude Code's `*` is not one), and no matcher is every tool; hookyard's own matchers filter.
 */
const commandMarker = "# added by hookyard install-into codex";

/**
 * Codex's hook `timeout`, in seconds (its default is 600): a first event that loads the hooks
 * itself (no daemon yet) on a busy machine takes seconds; a hung one holds Codex up no longer.
 */
export const codexHookTimeoutSeconds = 30;

/**
 * SessionEnd's: Codex clamps a SessionEnd hook's timeout to 3 s (and warns), and keys its trust on
 * the clamped value, so an entry that asks for more is never trusted as written.
 */
export const codexSessionEndTimeoutSeconds = 3;

/**
 * At PreToolUse and UserPromptSubmit Codex reads exit 2 as a refusal (stderr the reason) but any
 * other exit code as a failed hook, and goes on. `hookyard exec` answers 0 or 2 there itself; a
 * node that cannot run hookyard (its bin moved or deleted: exit 1; node gone: 127) would let the
 * call through, so `|| exit 2` turns that into a refusal, node's own error as the reason.
 */
const failClosed = " || exit 2";

/** Every event hookyard maps, each with the command entry that routes it to `hookyard exec`. */
export function codexHookyardEntries(route: Route): Array<{ event: string; hook: HookEntry }> {
  return codexEvents.map((event) => ({
    event,
    hook: {
      type: "command",
      command: `${route.exec} exec --profile codex ${event}${codexBlockableEvents.has(event) ? failClosed : ""} ${commandMarker}`,
      timeout: event === "SessionEnd" ? codexSessionEndTimeoutSeconds : codexHookTimeoutSeconds,
    },
  }));
}

export function codexGroupFor(_event: string, hook: HookEntry): Record<string, unknown> {
  return { hooks: [hook] };
}

export function isCodexHookyardEntry(hook: unknown): boolean {
  return (
    isObject(hook) &&
    hook.type === "command" &&
    typeof hook.command === "string" &&
    hook.command.trimEnd().endsWith(commandMarker)
  );
}
