import { mkdir, readFile, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import type { AgentPluginFile } from "../../adapters/agent-plugin-file.js";
import { unifiedDiff } from "../../adapters/claude/settings/line-diff.js";
import { AdapterError } from "../../adapters/errors.js";
import { writeFileAtomic } from "../../workspace/atomic-file.js";
import { findWorkspaceRoot } from "../../workspace/root.js";
import type { CliContext } from "../command.js";
import { exitCodes } from "../errors.js";
import { packageRoot } from "../package-root.js";

export interface PluginFileOptions {
  agent: AgentPluginFile;
  scope: "project" | "user";
  dryRun: boolean;
}

/**
 * The command the plugin runs hookyard with: the absolute path of node and of this hookyard's bin,
 * as words (the plugin spawns it without a shell), so it works without PATH and runs the hookyard
 * that was installed into it.
 */
function hookyardCommand(): string[] {
  return [process.execPath, join(packageRoot(), "bin", "hookyard.js")];
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function placeOf(context: CliContext, options: PluginFileOptions) {
  return options.agent.path(options.scope, { root: await findWorkspaceRoot(context.cwd), env: context.env });
}

/** Writes that agent's plugin file; a file there that is not ours is left alone and refused. */
export async function installPluginFile(context: CliContext, options: PluginFileOptions): Promise<number> {
  const { agent } = options;
  const { file, folders } = await placeOf(context, options);
  const say = (line: string) => context.stdout.write(`${line}\n`);
  const source = await readFile(join(packageRoot(), agent.source), "utf8");
  const text = agent.render(source, hookyardCommand());
  const before = await readIfThere(file);
  if (before !== undefined && !agent.isOurs(before)) {
    throw new AdapterError(
      "CLI_ERR_AGENT_PLUGIN_FILE",
      `${file} is there and was not written by hookyard install-into: it is left as it is. Move it, then run install-into ${agent.agent} again`,
    );
  }
  if (before === text) {
    say(`hookyard's ${agent.title} plugin is already in ${file}: nothing to change`);
    return exitCodes.ok;
  }
  if (options.dryRun) {
    context.stdout.write(
      unifiedDiff(before ?? "", text, { from: before === undefined ? "/dev/null" : file, to: file }),
    );
    say(`dry run: nothing written to ${file}`);
    return exitCodes.ok;
  }
  for (const folder of folders) await mkdir(folder, { recursive: true });
  await writeFileAtomic(file, text);
  say(`${before === undefined ? "wrote" : "updated"} hookyard's ${agent.title} plugin: ${file}`);
  for (const note of agent.installNotes) say(note);
  return exitCodes.ok;
}

/** Deletes the plugin file install-into wrote, and the folders it made that are left empty. */
export async function uninstallPluginFile(context: CliContext, options: PluginFileOptions): Promise<number> {
  const { agent } = options;
  const { file, folders } = await placeOf(context, options);
  const say = (line: string) => context.stdout.write(`${line}\n`);
  const before = await readIfThere(file);
  if (before === undefined || !agent.isOurs(before)) {
    const what = before === undefined ? "no hookyard plugin at" : "not hookyard's, left as it is:";
    say(`${what} ${file}: nothing to change`);
    return exitCodes.ok;
  }
  if (options.dryRun) {
    context.stdout.write(unifiedDiff(before, "", { from: file, to: "/dev/null" }));
    say(`dry run: ${file} would be removed`);
    return exitCodes.ok;
  }
  await rm(file);
  for (const folder of [...folders].reverse()) {
    // Only a folder left empty goes (install-into made it, or it held nothing but ours).
    await rmdir(folder).catch(() => {});
  }
  say(`removed hookyard's ${agent.title} plugin: ${file}`);
  return exitCodes.ok;
}
