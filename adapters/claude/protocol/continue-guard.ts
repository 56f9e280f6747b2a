import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Consecutive continues at a stop, per session and event: how many so far. */
export interface ContinueGuard {
  count(key: string): Promise<number>;
  set(key: string, count: number): Promise<void>;
}

/** The default cap, as the agent loop's: a stop asked to go on three times in a row then stops. */
export const maxContinues = 3;

/**
 * Counts in `.hookyard/state/claude-continues/`, one small file per session and event, so each
 * `exec` process sees the last one's count and two sessions never write the same file. A file
 * exists only while a session is in a run of continues.
 */
export function fileContinueGuard(root: string): ContinueGuard {
  const dir = join(root, ".hookyard", "state", "claude-continues");
  // Hashed: a session id is the agent's text, never a path. node:crypto loaded here, at a stop, not
  // with the profile: loading it costs every other event about 7 ms.
  const file = (key: string) => {
    const { createHash } = process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
    return join(dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
  };
  return {
    async count(key) {
      try {
        const data = JSON.parse(await readFile(file(key), "utf8")) as { count?: unknown };
        return typeof data.count === "number" && data.count >= 0 ? data.count : 0;
      } catch {
        return 0;
      }
    },
    async set(key, count) {
      if (count === 0) {
        await rm(file(key), { force: true });
        return;
      }
      await mkdir(dir, { recursive: true });
      const temp = `${file(key)}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify({ key, count })}\n`);
      await rename(temp, file(key));
    },
  };
}

/** For callers with no workspace on disk: counts live as long as the process. */
export function memoryContinueGuard(): ContinueGuard {
  const counts = new Map<string, number>();
  return {
    count: async (key) => counts.get(key) ?? 0,
    set: async (key, count) => {
      if (count === 0) counts.delete(key);
      else counts.set(key, count);
    },
  };
}
