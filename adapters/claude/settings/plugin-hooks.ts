import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { AdapterError } from "../../errors.js";
import { claudeEventPoint } from "../protocol/events.js";
import { isObject } from "./settings-file.js";
import { expandPluginRoot } from "./shell-words.js";

/** A rule for hookyard.json: a command rule under the claude profile. */
export type ImportedRule = Record<string, unknown> & { name: string };

/** A hook of the plugin hookyard cannot run, and why. */
export interface Unsupported {
  where: string;
  why: string;
}

/** Hook fields hookyard carries over (statusMessage is only that agent's spinner text). */
const understood = new Set(["type", "command", "timeout", "async", "statusMessage"]);
/** hookyard.json holds timeouts in ms, at most 10 minutes. */
const maxTimeoutMs = 600_000;

/**
 * A plugin's `hooks/hooks.json` as rules: each command hook becomes one rule that runs the command
 * unchanged under the claude profile, `${CLAUDE_PLUGIN_ROOT}` written out as the plugin's absolute
 * folder (and set in its env, for scripts that read it there). Names are
 * `<plugin>.<event>.<n>`, n counting that event's command hooks in file order: the same file
 * gives the same names. `root` is the plugin's absolute folder.
 */
export async function pluginRules(root: string): Promise<{
  plugin: string;
  root: string;
  rules: ImportedRule[];
  unsupported: Unsupported[];
}> {
  const file = join(root, "hooks", "hooks.json");
  const events = eventsOf(file, await readJson(file));
  const plugin = await pluginName(root);
  const rules: ImportedRule[] = [];
  const unsupported: Unsupported[] = [];
  for (const [event, groups] of Object.entries(events)) {
    const point = claudeEventPoint(event);
    let n = 0;
    groups.forEach((group, g) => {
      group.hooks.forEach((hook, h) => {
        const where = `${event}[${g}].hooks[${h}]`;
        const why = unsupportedWhy(point, event, hook);
        if (why) {
          unsupported.push({ where, why });
          return;
        }
        n++;
        rules.push(ruleFor({ plugin, root, event, matcher: group.matcher, hook, n }));
      });
    });
  }
  return { plugin, root, rules, unsupported };
}

type Group = { matcher?: unknown; hooks: Array<Record<string, unknown>> };

function ruleFor(from: {
  plugin: string;
  root: string;
  event: string;
  matcher: unknown;
  hook: Record<string, unknown>;
  n: number;
}): ImportedRule {
  const { plugin, root, event, hook } = from;
  const command = expandPluginRoot(String(hook.command), root);
  const matcher =
    event === "SubagentStop"
      ? // Stop and SubagentStop are both turn_after: the event that agent sent tells them apart.
        { "agent.event": "^SubagentStop$" }
      : typeof from.matcher === "string" && from.matcher !== "" && from.matcher !== "*"
        ? from.matcher
        : undefined;
  const timeout = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout * 1000 : undefined;
  return {
    name: `${plugin}.${kebab(event)}.${from.n}`,
    engine: "command",
    profile: "claude",
    command,
    ...(matcher === undefined ? {} : { matcher }),
    events: [claudeEventPoint(event)],
    env: { CLAUDE_PLUGIN_ROOT: root },
    ...(timeout === undefined ? {} : { timeoutMs: Math.min(Math.round(timeout), maxTimeoutMs) }),
    ...(hook.async === true ? { mode: "background" } : {}),
  };
}

function unsupportedWhy(
  point: string | undefined,
  event: string,
  hook: Record<string, unknown>,
): string | undefined {
  if (point === undefined) return `hookyard has no point for the ${event} event`;
  if (hook.type !== "command") {
    return `a "${String(hook.type)}" hook: hookyard runs only command hooks from a plugin`;
  }
  if (typeof hook.command !== "string" || hook.command.trim() === "")
    return "a command hook without a command";
  const other = Object.keys(hook).filter((key) => !understood.has(key));
  if (other.length > 0)
    return `its ${other.map((key) => `"${key}"`).join(", ")} has no equivalent in hookyard`;
  return undefined;
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new AdapterError("CLI_ERR_PLUGIN_INVALID", `${file} does not exist: is this a plugin folder?`);
    }
    throw error;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AdapterError(
      "CLI_ERR_PLUGIN_INVALID",
      `${file} is not valid JSON (${(error as Error).message})`,
    );
  }
}

/** `{ hooks: { Event: [groups] } }` as plugins write it, or the bare event map as settings files do. */
function eventsOf(file: string, data: unknown): Record<string, Group[]> {
  const events = isObject(data) && isObject(data.hooks) ? data.hooks : data;
  if (!isObject(events)) throw new AdapterError("CLI_ERR_PLUGIN_INVALID", `${file} must hold a JSON object`);
  const result: Record<string, Group[]> = {};
  for (const [event, groups] of Object.entries(events)) {
    if (event === "description" && typeof groups === "string") continue;
    const bad = (what: string) => new AdapterError("CLI_ERR_PLUGIN_INVALID", `${file}: "${event}" ${what}`);
    if (!Array.isArray(groups)) throw bad("must be an array of matcher groups");
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.every(isObject)) {
        throw bad(`[${g}] must be an object with a "hooks" array of objects`);
      }
    });
    result[event] = groups as Group[];
  }
  return result;
}

/** The plugin's name from `.claude-plugin/plugin.json`, else its folder's; as a hook name allows it. */
async function pluginName(root: string): Promise<string> {
  let name = basename(root);
  try {
    const manifest: unknown = JSON.parse(await readFile(join(root, ".claude-plugin", "plugin.json"), "utf8"));
    if (isObject(manifest) && typeof manifest.name === "string" && manifest.name.trim() !== "")
      name = manifest.name;
  } catch {
    // No manifest, or one that is not JSON: the folder's name will do.
  }
  const safe = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 36)
    .replace(/[._-]+$/, "");
  return safe || "plugin";
}

function kebab(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}
