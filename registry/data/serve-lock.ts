import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import lockfile from "proper-lockfile";
import type { DatabaseLocation } from "../database-url.js";
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
  return lockServing(root, join(root, "serve.lock"), root);
}

/**
 * What an embedded registry holds while it serves: its data dir's lock, and that of an sqlite file
 * kept elsewhere (`--database sqlite:<path>`, `<path>.serve.lock`), so that two data dirs cannot
 * share one database file either. Nothing on PostgreSQL, which any number of processes share.
 */
export async function lockEmbedded(
  root: string,
  database: DatabaseLocation | undefined,
): Promise<() => Promise<void>> {
  if (database?.kind === "postgres") return async () => {};
  const releaseDir = await lockDataDir(root);
  if (database === undefined || dirname(database.file) === root) return releaseDir;
  try {
    await mkdir(dirname(database.file), { recursive: true });
    const releaseFile = await lockServing(database.file, `${database.file}.serve.lock`, database.file);
    return async () => {
      await releaseFile();
      await releaseDir();
    };
  } catch (error) {
    await releaseDir();
    throw error;
  }
}

async function lockServing(target: string, lockPath: string, what: string): Promise<() => Promise<void>> {
  const owner = `${lockPath}.pid`;
  const take = () =>
    lockfile.lock(target, {
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
    if (!(await holderIsGone(owner))) throw locked(what, await readFile(owner, "utf8").catch(() => ""));
    await rm(lockPath, { recursive: true, force: true });
    release = await take().catch((again: NodeJS.ErrnoException) => {
      if (again.code === "ELOCKED") throw locked(what, "");
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

function locked(what: string, holder: string): RegistryError {
  const who = holder.trim() ? ` (host and pid: ${holder.trim()})` : "";
  return new RegistryError(
    "REG_ERR_DATA_DIR_LOCKED",
    `another \`hookyard registry serve\` already serves ${what}${who}: an embedded registry is one process; stop the other one, or run several processes on PostgreSQL (--database postgres://…)`,
  );
}
