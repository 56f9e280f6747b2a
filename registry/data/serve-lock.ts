import { readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import lockfile from "proper-lockfile";
import { RegistryError } from "../errors.js";

/** A held lock's mtime is renewed this often; one not renewed for `staleMs` is taken over. */
const updateMs = 2_000;
const staleMs = 10_000;

/**
 * One `registry serve` per embedded data dir: sqlite and the blob files are made for one writer
 * process. The lock is proper-lockfile's (a directory made atomically, its mtime kept fresh); a
 * holder that crashed loses it at once when it ran on this machine (its pid is gone), else after
 * `staleMs`. Returns the release.
 */
export async function lockDataDir(root: string): Promise<() => Promise<void>> {
  const lockPath = join(root, "serve.lock");
  const owner = join(root, "serve.lock.pid");
  const take = () =>
    lockfile.lock(root, {
      lockfilePath: lockPath,
      stale: staleMs,
      update: updateMs,
      realpath: false,
      // A lock lost later (its dir removed by hand, or the disk gone) is logged, not a crash.
      onCompromised: () => {},
    });
  let release: () => Promise<void>;
  try {
    release = await take();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    if (!(await holderIsGone(owner))) throw locked(root, await readFile(owner, "utf8").catch(() => ""));
    await rm(lockPath, { recursive: true, force: true });
    release = await take().catch((again: NodeJS.ErrnoException) => {
      if (again.code === "ELOCKED") throw locked(root, "");
      throw again;
    });
  }
  await writeFile(owner, `${hostname()} ${process.pid}\n`);
  return async () => {
    await rm(owner, { force: true });
    await release().catch(() => {});
  };
}

async function holderIsGone(ownerFile: string): Promise<boolean> {
  const text = await readFile(ownerFile, "utf8").catch(() => "");
  const [host, pid] = text.trim().split(" ");
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function locked(root: string, holder: string): RegistryError {
  const who = holder.trim() ? ` (host and pid: ${holder.trim()})` : "";
  return new RegistryError(
    "REG_ERR_DATA_DIR_LOCKED",
    `another \`hookyard registry serve\` already serves ${root}${who}: an embedded registry is one process; stop the other one, or run several processes on PostgreSQL (--database postgres://…)`,
  );
}
