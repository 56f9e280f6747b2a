import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { isObject } from "../../claude/settings/settings-file.js";

/**
 * Codex runs a hook from a hooks.json only once the user has trusted it (its `/hooks` panel): it
 * records, in `$CODEX_HOME/config.toml` under `[hooks.state."<file>:<event>:<group>:<index>"]`, a
 * `trusted_hash` of the hook as it was then. A hook with no hash, or another one (its command
 * changed: install-into run from another path), silently does not run. These read that record,
 * so `hookyard status` can say so rather than look installed.
 */

/** Codex's own folder: $CODEX_HOME, else ~/.codex. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env.CODEX_HOME ?? join(env.HOME ?? homedir(), ".codex");
}

/** PreToolUse → pre_tool_use: the event's name in Codex's config keys. */
export function codexEventKey(event: string): string {
  return event.replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
}

/**
 * The hash Codex records when a command hook is trusted: SHA-256 of the hook's identity (its event
 * key, its group's matcher, the one handler with its timeout, default 600 s, and `async`) as JSON
 * with its keys sorted, "sha256:" before the hex.
 */
export function codexTrustHash(
  event: string,
  matcher: string | undefined,
  hook: Record<string, unknown>,
): string {
  const handler: Record<string, unknown> = {
    async: hook.async === true,
    command: hook.command,
    timeout: typeof hook.timeout === "number" ? Math.max(1, hook.timeout) : 600,
    type: "command",
  };
  if (typeof hook.statusMessage === "string") handler.statusMessage = hook.statusMessage;
  const identity: Record<string, unknown> = { event_name: codexEventKey(event), hooks: [handler] };
  if (matcher !== undefined) identity.matcher = matcher;
  return `sha256:${createHash("sha256")
    .update(JSON.stringify(sorted(identity)))
    .digest("hex")}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** One hook entry of a hooks.json as Codex keys it, with the hash it must have been trusted at. */
export interface CodexHookIdentity {
  event: string;
  key: string;
  hash: string;
}

/** Every entry of a hooks.json (`file`, its absolute path) that `pick` selects, as Codex keys and hashes it. */
export function codexHookIdentities(
  file: string,
  data: Record<string, unknown>,
  pick: (hook: unknown) => boolean,
): CodexHookIdentity[] {
  const found: CodexHookIdentity[] = [];
  if (!isObject(data.hooks)) return found;
  for (const [event, groups] of Object.entries(data.hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
      group.hooks.forEach((hook, h) => {
        if (!pick(hook) || !isObject(hook)) return;
        found.push({
          event,
          key: `${file}:${codexEventKey(event)}:${g}:${h}`,
          hash: codexTrustHash(event, matcher, hook),
        });
      });
    });
  }
  return found;
}

/**
 * The entries Codex has not trusted as they are now: no `trusted_hash` equal to theirs in its
 * config.toml's text (`configText`, "" when there is none). The hash is searched for, not parsed
 * out of TOML: it is 64 hex digits only a trust of that very hook writes.
 */
export function untrustedHooks(
  identities: readonly CodexHookIdentity[],
  configText: string,
): CodexHookIdentity[] {
  return identities.filter((identity) => !configText.includes(`"${identity.hash}"`));
}
