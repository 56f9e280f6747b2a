import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { AdapterError } from "../../errors.js";
import { claudeEventPoint } from "../protocol/events.js";
import { isObject } from "./settings-file.js";
import { expandPluginRoot } from "./shell-words.js";

/** An entry for hookyard.json's `rules`: a command hook under the claude profile, or a judge or agent hook. */
export type ImportedHook = Record<string, unknown> & { name: string };

/** A hook of the plugin hookyard cannot run, and why. */
export interface Unsupported {
  where: string;
  why: string;
}

/**
 * Hook fields hookyard carries over, per handler type (statusMessage is only that agent's spinner
 * text; a prompt or agent hook's `model` names one of that agent's models, replaced by `--model`).
 */
const understood: Record<string, ReadonlySet<string>> = {
  command: new Set(["type", "command", "timeout", "async", "statusMessage"]),
  prompt: new Set(["type", "prompt", "timeout", "model", "statusMessage"]),
  agent: new Set(["type", "prompt", "timeout", "model", "statusMessage"]),
};
/** That agent's handler types and the engine each becomes: a single-turn judgement, a reviewing sub-agent. */
const modelEngines: Record<string, "judge" | "agent"> = { prompt: "judge", agent: "agent" };

/** The model hookyard calls for a plugin's prompt and agent hooks (`--model`, `--base-url`). */
export interface ImportModel {
  model: string;
  baseUrl?: string;
}

/** The ctx field a matcher tests at an event of that agent, for hooks that are not scripts of that agent. */
const matcherFields: Record<string, string> = {
  PreToolUse: "agent.tool",
  PostToolUse: "agent.tool",
  PostToolUseFailure: "agent.tool",
  SessionStart: "agent.source",
  PreCompact: "agent.trigger",
  Notification: "agent.notificationType",
};
/** hookyard.json holds timeouts in ms, at most 10 minutes. */
const maxTimeoutMs = 600_000;

/**
 * A plugin's `hooks/hooks.json` as hookyard.json entries: each command hook becomes one entry that runs the command
 * unchanged under the claude profile, `${CLAUDE_PLUGIN_ROOT}` written out as the plugin's absolute
 * folder (and set in its env, for scripts that read it there). With `model`, a `prompt` hook
 * becomes a `judge` entry and an `agent` hook an `agent` entry on that model; without, they are
 * unsupported. Names are `<plugin>.<event>.<n>`, n counting that event's imported hooks in file
 * order: the same file gives the same names. `root` is the plugin's absolute folder.
 */
export async function pluginHooks(
  root: string,
  model?: ImportModel,
): Promise<{
  plugin: string;
  root: string;
  entries: ImportedHook[];
  unsupported: Unsupported[];
}> {
  const file = join(root, "hooks", "hooks.json");
  const events = eventsOf(file, await readJson(file));
  const plugin = await pluginName(root);
  const entries: ImportedHook[] = [];
  const unsupported: Unsupported[] = [];
  for (const [event, groups] of Object.entries(events)) {
    const point = claudeEventPoint(event);
    let n = 0;
    groups.forEach((group, g) => {
      group.hooks.forEach((hook, h) => {
        const where = `${event}[${g}].hooks[${h}]`;
        const why = unsupportedWhy(point, event, hook, group.matcher, model);
        if (why) {
          unsupported.push({ where, why });
          return;
        }
        n++;
        const from = { plugin, root, event, matcher: group.matcher, hook, n };
        entries.push(model && hook.type !== "command" ? modelEntryFor(from, model) : entryFor(from));
      });
    });
  }
  return { plugin, root, entries, unsupported };
}

type Group = { matcher?: unknown; hooks: Array<Record<string, unknown>> };

function entryFor(from: {
  plugin: string;
  root: string;
  event: string;
  matcher: unknown;
  hook: Record<string, unknown>;
  n: number;
}): ImportedHook {
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

/** A prompt or agent hook as a judge or agent entry on hookyard's model; the prompt is kept as written. */
function modelEntryFor(
  from: { plugin: string; event: string; matcher: unknown; hook: Record<string, unknown>; n: number },
  model: ImportModel,
): ImportedHook {
  const { plugin, event, hook } = from;
  const engine = modelEngines[String(hook.type)] as "judge" | "agent";
  const matcher = fieldMatcher(event, from.matcher);
  const timeout = typeof hook.timeout === "number" && hook.timeout > 0 ? hook.timeout * 1000 : undefined;
  return {
    name: `${plugin}.${kebab(event)}.${from.n}`,
    engine,
    model: model.model,
    ...(model.baseUrl === undefined ? {} : { baseUrl: model.baseUrl }),
    ...(engine === "judge" ? { prompt: String(hook.prompt) } : { instructions: String(hook.prompt) }),
    ...(matcher === undefined ? {} : { matcher }),
    events: [claudeEventPoint(event)],
    ...(timeout === undefined ? {} : { timeoutMs: Math.min(Math.round(timeout), maxTimeoutMs) }),
  };
}

/** That agent's matcher (names exactly, `A|B`, else an unanchored regex) as ours, on the field it tests. */
function fieldMatcher(event: string, matcher: unknown): Record<string, string> | undefined {
  if (event === "SubagentStop") return { "agent.event": "^SubagentStop$" };
  if (typeof matcher !== "string" || matcher === "" || matcher === "*") return undefined;
  const field = matcherFields[event];
  if (field === undefined) return undefined;
  return { [field]: /^[A-Za-z0-9_|]+$/.test(matcher) ? `^(?:${matcher})$` : matcher };
}

function unsupportedWhy(
  point: string | undefined,
  event: string,
  hook: Record<string, unknown>,
  matcher: unknown,
  model: ImportModel | undefined,
): string | undefined {
  if (point === undefined) return `hookyard has no point for the ${event} event`;
  const type = String(hook.type);
  if (modelEngines[type] !== undefined) {
    if (model === undefined) {
      return `a "${type}" hook needs a model hookyard can call: pass --model openai:<model> (or scripted:<file.json>)`;
    }
    if (typeof hook.prompt !== "string" || hook.prompt.trim() === "")
      return `a "${type}" hook without a prompt`;
    const plain = typeof matcher !== "string" || matcher === "" || matcher === "*";
    if (!plain && event !== "SubagentStop" && matcherFields[event] === undefined) {
      return `a "${type}" hook with a matcher on ${event}, which hookyard cannot test outside that agent's scripts`;
    }
  } else if (type !== "command") {
    return `a "${type}" hook: hookyard runs command, prompt and agent hooks from a plugin`;
  } else if (typeof hook.command !== "string" || hook.command.trim() === "") {
    return "a command hook without a command";
  }
  const known = understood[type] ?? new Set();
  const other = Object.keys(hook).filter((key) => !known.has(key));
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
