import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";
import { type Hooks, loadHooks } from "../../../../index.js";
import { type RecordingLogger, recordingLogger } from "../../../helpers/logger.js";
import { workspace } from "../../../helpers/temp.js";

/** Scripts written the way that agent's hook docs write them. */
export const claudeHooks = fileURLToPath(new URL("../fixtures/claude-hooks/", import.meta.url));

export function fixture(name: string): string {
  return join(claudeHooks, name);
}

function found(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}

/** Why the python fixtures cannot run here, or undefined. */
export const noPython = found("python3") ? undefined : "python3 is not on PATH";
/** The bash fixtures read their input with jq, as that agent's docs do. */
export const noBash = !found("bash") ? "bash is not on PATH" : !found("jq") ? "jq is not on PATH" : undefined;

const opened: Hooks[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((hooks) => hooks.close()));
});

/** A workspace whose hookyard.json's `rules` holds `entries` (and `files`), loaded as `hookyard run` would. */
export async function workspaceWith(
  entries: object[],
  files: Record<string, string | object> = {},
): Promise<{ root: string; hooks: Hooks; logger: RecordingLogger }> {
  const root = await workspace({ "hookyard.json": { rules: entries }, ...files });
  const logger = recordingLogger();
  const hooks = await loadHooks({ cwd: root, logger });
  opened.push(hooks);
  return { root, hooks, logger };
}

/** A hook that runs `command` under the claude profile at `events`. */
export function claudeHook(name: string, command: string, events: string[], extra: object = {}): object {
  return { name, engine: "command", profile: "claude", command, events, ...extra };
}
