import { createHash } from "node:crypto";
import { constants, rmSync } from "node:fs";
import { readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { ClientError } from "../errors.js";

/**
 * A holder refreshes its lock's mtime every half of this; a lock not refreshed for this long is a
 * killed process's, and the next command takes it over.
 */
export const staleMs = 10_000;
/** A lock another command holds is asked for again for about a second (1.35 s) before this one is refused. */
const retries = { retries: 8, factor: 2, minTimeout: 50, maxTimeout: 200 };

export interface WorkspaceHold {
  release(): Promise<void>;
  /** Aborted (with a CliError) if another process took the lock over: this one must not write. */
  lost: AbortSignal;
}

/**
 * One change to a workspace's community hooks at a time: two installs at once would each write
 * a lock that forgets the other's package. The mutex is proper-lockfile's: a directory in the OS
 * temp dir named after the workspace (so a failed install leaves nothing in the workspace), made
 * with mkdir (atomic), its mtime refreshed while it is held and taken over once stale. The
 * holder's pid is written beside it (proper-lockfile removes only an empty directory), for the
 * message another command shows.
 */
export async function holdWorkspace(root: string): Promise<WorkspaceHold> {
  const key = createHash("sha256")
    .update(await realpath(root).catch(() => root))
    .digest("hex")
    .slice(0, 16);
  const base = join(tmpdir(), `hookyard-workspace-${key}`);
  const dir = `${base}.mutex`;
  const pidFile = `${base}.pid`;
  const lost = new AbortController();
  let unlock: () => Promise<void>;
  try {
    unlock = await lockfile.lock(pidFile, {
      realpath: false,
      lockfilePath: dir,
      stale: staleMs,
      retries,
      onCompromised: (error) => lost.abort(takenOver(root, error)),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    const owner = Number((await readFile(pidFile, "utf8").catch(() => "")).trim());
    throw busy(root, dir, Number.isInteger(owner) && owner > 0 ? owner : undefined);
  }
  // proper-lockfile removes its directory when the process exits; the pid file goes with it.
  const onExit = () => {
    if (!lost.signal.aborted) rmSync(pidFile, { force: true });
  };
  process.once("exit", onExit);
  const release = async () => {
    process.off("exit", onExit);
    // Taken over: the directory and the pid file are the other process's now.
    if (lost.signal.aborted) return;
    await rm(pidFile, { force: true });
    await unlock().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ERELEASED") throw error;
    });
  };
  // Only a message reads it: a symlink planted there is not followed, another user's file is left as it is.
  await writeFile(pidFile, String(process.pid), { mode: 0o600, flag: pidFileFlags }).catch(() => {});
  return { release, lost: lost.signal };
}

const pidFileFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

function busy(root: string, dir: string, owner: number | undefined): ClientError {
  return new ClientError(
    "CLI_ERR_WORKSPACE_BUSY",
    `another hookyard${owner === undefined ? "" : ` (pid ${owner})`} is changing the community hooks of ${root}: wait for it to finish, and run this again (if no such process exists, delete ${dir})`,
  );
}

function takenOver(root: string, cause: Error): ClientError {
  return new ClientError(
    "CLI_ERR_WORKSPACE_BUSY",
    `lost the lock on the community hooks of ${root} (another hookyard took it over, or it was deleted): this command stopped; run it again`,
    { cause },
  );
}
