import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { open, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError } from "../errors.js";

/**
 * One change to a workspace's community hooks at a time: two installs at once would each write
 * a lock that forgets the other's package. The mutex is a file in the OS temp dir named after the
 * workspace (so a failed install leaves nothing in the workspace), holding the owner's pid; a file
 * whose process is gone is stale and taken over.
 */
export async function holdWorkspace(root: string): Promise<() => Promise<void>> {
  const key = createHash("sha256")
    .update(await realpath(root).catch(() => root))
    .digest("hex")
    .slice(0, 16);
  const file = join(tmpdir(), `hookyard-workspace-${key}.lock`);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw busyOr(error, root, file);
      await takeOverIfStale(file, root);
      continue;
    }
    // Two processes that took over the same stale file at once: the one whose pid is not in it now
    // lost the race (the other removed its file and wrote its own).
    if (attempt > 0) {
      await sleep(takeoverSettleMs);
      if (Number((await readFile(file, "utf8").catch(() => "")).trim()) !== process.pid) {
        throw busy(root, file, Number((await readFile(file, "utf8").catch(() => "0")).trim()));
      }
    }
    // A command that fails before it runs its change still leaves nothing behind when it exits.
    const onExit = () => rmSync(file, { force: true });
    process.once("exit", onExit);
    return async () => {
      process.off("exit", onExit);
      await rm(file, { force: true });
    };
  }
}

/** How long a process that took over a stale file waits before checking it still holds it. */
const takeoverSettleMs = 30;

async function takeOverIfStale(file: string, root: string): Promise<void> {
  const owner = Number((await readFile(file, "utf8").catch(() => "")).trim());
  // This process's own leftover (a command that stopped before it ran) is not another install.
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner))
    throw busy(root, file, owner);
  await rm(file, { force: true });
}

function busy(root: string, file: string, owner: number): CliError {
  return new CliError(
    "CLI_ERR_WORKSPACE_BUSY",
    `another hookyard (pid ${owner}) is changing the community hooks of ${root}: wait for it to finish, and run this again (if no such process exists, delete ${file})`,
  );
}

function busyOr(error: unknown, root: string, file: string): unknown {
  return (error as NodeJS.ErrnoException).code === "EEXIST" ? busy(root, file, 0) : error;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
