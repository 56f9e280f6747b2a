import { lstat, mkdir, readFile, readlink, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "../../../workspace/atomic-file.js";
import { AdapterError } from "../../errors.js";

export type SettingsScope = "project" | "user";

/** `.claude/settings.json` in the project, or in the user's home ($HOME). */
export function settingsPath(scope: SettingsScope, where: { root: string; env: NodeJS.ProcessEnv }): string {
  const base = scope === "user" ? (where.env.HOME ?? homedir()) : where.root;
  return join(base, ".claude", "settings.json");
}

/** A settings file as read: its data, and how it was written, so a rewrite changes only what it must. */
export interface SettingsFile {
  /** The path given; writes go to the file it links to, if it is a symlink (a dotfiles repo). */
  file: string;
  existed: boolean;
  text: string;
  data: Record<string, unknown>;
  indent: string;
  newline: string;
  finalNewline: boolean;
  mode: number;
}

export async function readSettings(file: string): Promise<SettingsFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return {
      file,
      existed: false,
      text: "",
      data: {},
      indent: "  ",
      newline: "\n",
      finalNewline: true,
      mode: 0o644,
    };
  }
  // An empty file holds no settings; that agent reads it the same way.
  let data: unknown = {};
  if (text.trim() !== "") {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw invalid(file, `is not valid JSON (${(error as Error).message})`);
    }
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw invalid(file, "must hold a JSON object");
  }
  checkHooksShape(file, data as Record<string, unknown>);
  return {
    file,
    existed: true,
    text,
    data: data as Record<string, unknown>,
    indent: /^([ \t]+)"/m.exec(text)?.[1] ?? "  ",
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: text === "" || /\n$/.test(text),
    mode: (await stat(file)).mode & 0o777,
  };
}

/** The settings as text, in the file's own indentation and line endings. */
export function formatSettings(settings: SettingsFile, data: Record<string, unknown>): string {
  const text = JSON.stringify(data, null, settings.indent).replace(/\n/g, settings.newline);
  return settings.finalNewline ? `${text}${settings.newline}` : text;
}

/** Writes whole or not at all, keeping the file's mode; through a symlink, to its target. */
export async function writeSettings(settings: SettingsFile, text: string): Promise<void> {
  const target = await linkTarget(settings.file);
  await mkdir(dirname(target), { recursive: true });
  await writeFileAtomic(target, text, settings.mode);
}

/** `hooks` is `{ Event: [ { matcher?, hooks: [ … ] } ] }`; anything else is refused before a change. */
function checkHooksShape(file: string, data: Record<string, unknown>): void {
  if (data.hooks === undefined) return;
  if (!isObject(data.hooks)) throw invalid(file, '"hooks" must be an object of events');
  for (const [event, groups] of Object.entries(data.hooks)) {
    if (!Array.isArray(groups)) throw invalid(file, `"hooks.${event}" must be an array of matcher groups`);
    groups.forEach((group, index) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        throw invalid(file, `"hooks.${event}[${index}]" must be an object with a "hooks" array`);
      }
    });
  }
}

function invalid(file: string, why: string): AdapterError {
  return new AdapterError("CLI_ERR_AGENT_SETTINGS", `${file} ${why}; nothing was changed`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Where the settings really live: a symlink (to a dotfiles repo, say) is followed, even one whose
 * target does not exist yet, so it stays a symlink and its target is written.
 */
async function linkTarget(file: string): Promise<string> {
  let seen = 0;
  for (let at = file; ; seen++) {
    const info = await lstat(at).catch(() => undefined);
    if (!info?.isSymbolicLink() || seen > 40) return at;
    at = resolve(dirname(at), await readlink(at));
  }
}
