import { createHash } from "node:crypto";
import { open, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
    }
    const owner = Number((await readFile(file, "utf8").catch(() => "")).trim());
    // This process's own leftover (a command that stopped before it ran) is not another install.
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
      throw new CliError(
        "CLI_ERR_WORKSPACE_BUSY",
        `another hookyard (pid ${owner}) is changing the community hooks of ${root}: wait for it to finish, and run this again (if no such process exists, delete ${file})`,
      );
    }
    await rm(file, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
