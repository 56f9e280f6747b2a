import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SandboxError } from "../errors.js";

/**
 * The script the supervisor forks: the sandbox process's entry, `child/main.js`. Built, it sits in
 * the sibling folder of this module's; when this module runs from TypeScript source (under vitest),
 * Node cannot run the .ts, so the build in dist/ is used.
 */
export function sandboxEntryPath(): string {
  const here = fileURLToPath(import.meta.url);
  const entry = here.endsWith(".ts")
    ? join(resolve(dirname(here), "../.."), "dist", "sandbox", "child", "main.js")
    : join(dirname(here), "..", "child", "main.js");
  if (!existsSync(entry)) {
    throw new SandboxError(
      "SANDBOX_ERR_HOST_MISSING",
      `the sandbox process's script ${entry} does not exist: run \`npm run build\` first`,
    );
  }
  return entry;
}
