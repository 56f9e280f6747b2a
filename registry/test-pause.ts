import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { RegistryHooks } from "./context.js";

/**
 * TEST ONLY. With HOOKYARD_TEST_PAUSE_BEFORE_COMMIT=<dir> set, `hookyard registry serve` stops
 * every publish after its blob is stored and before its row is committed: it writes
 * `<dir>/reached` and waits (up to a minute) for `<dir>/release` to exist. The crash-safety test
 * kills the server while it waits. Never set it in production: publishes would hang.
 */
export const pauseVariable = "HOOKYARD_TEST_PAUSE_BEFORE_COMMIT";

export function pauseHooksFromEnv(env: NodeJS.ProcessEnv): RegistryHooks | undefined {
  const dir = env[pauseVariable];
  if (!dir) return undefined;
  return {
    async beforeCommit(pending) {
      await writeFile(join(dir, "reached"), JSON.stringify(pending));
      for (let waited = 0; !existsSync(join(dir, "release")); waited += 20) {
        if (waited > 60_000) throw new Error(`${pauseVariable}: nobody released the publish within a minute`);
        await sleep(20);
      }
    },
  };
}
