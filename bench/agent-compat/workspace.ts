import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { guardHookSource, pythonGuardScript } from "./guards.js";

/**
 * The project the agent works in: the guard as a workspace hook (`.hookyard/hooks/guard.ts`, trusted,
 * in-process) for hookyard, and as the python script a command hook would run (`.claude/hooks/`).
 */
export async function writeTrustedWorkspace(dir: string): Promise<{ pythonScript: string }> {
  const hooks = join(dir, ".hookyard", "hooks");
  await mkdir(hooks, { recursive: true });
  await writeFile(join(hooks, "guard.ts"), guardHookSource);
  const scripts = join(dir, ".claude", "hooks");
  await mkdir(scripts, { recursive: true });
  const pythonScript = join(scripts, "guard.py");
  await writeFile(pythonScript, pythonGuardScript);
  return { pythonScript };
}
