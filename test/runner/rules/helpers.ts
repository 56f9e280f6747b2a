import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { type Hooks, loadHooks } from "../../../runner/load/load-hooks.js";
import { type RecordingLogger, recordingLogger } from "../../helpers/logger.js";
import { tempDir, writeFiles } from "../../helpers/temp.js";

const loaded: Hooks[] = [];
afterEach(async () => {
  await Promise.all(loaded.splice(0).map((hooks) => hooks.close()));
});

/** A temp workspace holding `files` (a Buffer is written as bytes), its hooks loaded as every command loads them. */
export async function rulesWorkspace(
  files: Record<string, string | object | Buffer>,
): Promise<{ root: string; hooks: Hooks; logger: RecordingLogger }> {
  const root = await tempDir();
  for (const [path, contents] of Object.entries(files)) {
    if (!Buffer.isBuffer(contents)) continue;
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), contents);
  }
  await writeFiles(root, Object.fromEntries(Object.entries(files).filter(([, c]) => !Buffer.isBuffer(c))));
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger });
  loaded.push(hooks);
  return { root, hooks, logger };
}

/** A rule file: `front` is the YAML between the --- lines, as written. */
export function ruleFile(front: string, message = "Rule message."): string {
  return `---\n${front.trim()}\n---\n\n${message}\n`;
}
