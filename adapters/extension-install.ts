import { mkdir, readdir, readFile, rm, rmdir } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { writeFileAtomic } from "../workspace/atomic-file.js";
import type { AgentExtension } from "./agent-extension.js";
import { AdapterError } from "./errors.js";

/** One file of the extension: what is there now (null: nothing) and what will be (null: removed). */
export interface FileChange {
  file: string;
  before: string | null;
  after: string | null;
}

/** What install-into or uninstall-from would do to the extension's folder; nothing is written yet. */
export interface ExtensionPlan {
  folder: string;
  changes: FileChange[];
  /** Folders to make (install, outermost first) or to remove once empty (uninstall, innermost first). */
  folders: string[];
}

/** The config beside the extension: the command it runs, and the folders install-into made, for the undo. */
interface CommandConfig {
  addedBy: string;
  command: string[];
  madeFolders: string[];
}

const configName = "command.json";
const entryName = "index.ts";
const addedBy = (agent: AgentExtension) => `hookyard install-into ${agent.agent}`;

/**
 * What installing `agent`'s extension into `folder` changes: its entry (the source, as is) and its
 * command.json. A file there that is not hookyard's stops it (AdapterError CLI_ERR_AGENT_FILES):
 * the user's own files are never overwritten. Run again, it changes nothing.
 */
export async function planExtensionInstall(
  agent: AgentExtension,
  place: { base: string; folder: string },
  source: string,
  command: string[],
): Promise<ExtensionPlan> {
  const { folder } = place;
  const entry = join(folder, entryName);
  const configFile = join(folder, configName);
  const [entryText, configText] = await Promise.all([readIfThere(entry), readIfThere(configFile)]);
  if (entryText !== null && !isOurEntry(entryText, source)) {
    throw new AdapterError(
      "CLI_ERR_AGENT_FILES",
      `${entry} is already there and is not hookyard's extension: move it away, then run install-into ${agent.agent} again`,
    );
  }
  const config = configText === null ? undefined : ourConfig(agent, configText);
  if (configText !== null && config === undefined) {
    throw new AdapterError(
      "CLI_ERR_AGENT_FILES",
      `${configFile} is already there and was not written by hookyard: move it away, then run install-into ${agent.agent} again`,
    );
  }
  const folders = config ? [] : await missingFolders(place.base, folder);
  const madeFolders = config?.madeFolders ?? folders.map((f) => relative(place.base, f).split(sep).join("/"));
  const nextConfig = `${JSON.stringify({ addedBy: addedBy(agent), command, madeFolders } satisfies CommandConfig, null, 2)}\n`;
  const changes = [
    { file: entry, before: entryText, after: source },
    { file: configFile, before: configText, after: nextConfig },
  ].filter((change) => change.before !== change.after);
  return { folder, changes, folders };
}

/**
 * What uninstalling takes out: hookyard's two files, and the folders install-into made once they
 * are empty, so the tree is as it was before (a file of the user's beside them stays, and so does
 * its folder). Files that are not hookyard's are left alone.
 */
export async function planExtensionUninstall(
  agent: AgentExtension,
  place: { base: string; folder: string },
  source: string,
): Promise<ExtensionPlan> {
  const { folder } = place;
  const entry = join(folder, entryName);
  const configFile = join(folder, configName);
  const [entryText, configText] = await Promise.all([readIfThere(entry), readIfThere(configFile)]);
  const config = configText === null ? undefined : ourConfig(agent, configText);
  const changes: FileChange[] = [];
  if (entryText !== null && isOurEntry(entryText, source))
    changes.push({ file: entry, before: entryText, after: null });
  if (config !== undefined) changes.push({ file: configFile, before: configText, after: null });
  const made = (config?.madeFolders ?? [])
    .map((f) => join(place.base, ...f.split("/")))
    .filter((f) => f === folder || folder.startsWith(`${f}${sep}`));
  return { folder, changes, folders: made.sort((a, b) => b.length - a.length) };
}

/** Carries out an install plan: folders made, files written atomically. */
export async function applyExtensionInstall(plan: ExtensionPlan): Promise<void> {
  await mkdir(plan.folder, { recursive: true });
  for (const change of plan.changes) await writeFileAtomic(change.file, change.after as string);
}

/** Carries out an uninstall plan: files removed, then each made folder that is left empty. */
export async function applyExtensionUninstall(plan: ExtensionPlan): Promise<void> {
  for (const change of plan.changes) await rm(change.file, { force: true });
  for (const folder of plan.folders) {
    const left = await readdir(folder).catch(() => null);
    if (left !== null && left.length === 0) await rmdir(folder);
  }
}

/** The extension's entry is hookyard's when it opens as the shipped source does (a copy of any version). */
function isOurEntry(text: string, source: string): boolean {
  const firstLines = (t: string) => t.split("\n").slice(0, 2).join("\n");
  return text === source || firstLines(text) === firstLines(source);
}

function ourConfig(agent: AgentExtension, text: string): CommandConfig | undefined {
  try {
    const data = JSON.parse(text) as Partial<CommandConfig>;
    if (data?.addedBy !== addedBy(agent)) return undefined;
    const madeFolders = Array.isArray(data.madeFolders)
      ? data.madeFolders.filter((f) => typeof f === "string")
      : [];
    return { addedBy: data.addedBy, command: Array.isArray(data.command) ? data.command : [], madeFolders };
  } catch {
    return undefined;
  }
}

/** The folders from `folder` up to (not including) `base` that are not there yet, outermost first. */
async function missingFolders(base: string, folder: string): Promise<string[]> {
  const missing: string[] = [];
  for (let at = folder; at !== base && at.startsWith(base) && at !== dirname(at); at = dirname(at)) {
    const there = await readdir(at).then(
      () => true,
      () => false,
    );
    if (there) break;
    missing.unshift(at);
  }
  return missing;
}

async function readIfThere(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
