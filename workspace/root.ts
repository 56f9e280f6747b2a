import { statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

/** The workspace's config file, at its root. */
export const configFileName = "hookyard.json";

/**
 * The workspace root for `cwd`: the nearest folder at or above it that holds hookyard.json or
 * .hookyard/, else `cwd` itself. Kept free of the runner's other modules: commands that only need
 * the root (install, verify) must not load the hook engines to find it.
 */
export async function findWorkspaceRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if ((await exists(join(dir, configFileName))) || (await exists(join(dir, ".hookyard")))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * findWorkspaceRoot with plain stats: for the exec client, which must not load node:fs/promises
 * (and the ten internal modules it brings) on every event of the agent.
 */
export function findWorkspaceRootSync(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, configFileName)) || existsSync(join(dir, ".hookyard"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function existsSync(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // as exists() above: a folder it may not enter is no root
  }
}
