import { constants, existsSync } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/*
 * Check-then-use on paths is racy: between a check and an open, a directory on the way can be
 * swapped for a symbolic link that leads out. So the broker opens first and then asks the kernel
 * what it actually opened (on Linux, /proc/self/fd/<fd> names the opened file itself), and works
 * on children through the opened directory (/proc/self/fd/<fd>/<name> resolves from that very
 * directory, wherever it now is): openat(2) for a runtime that has no openat.
 */

const procFd = process.platform === "linux" && existsSync("/proc/self/fd");

const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** A directory held open, proved to be the one at `path` when it was opened. */
export interface OpenedDirectory {
  handle: FileHandle;
  path: string;
}

/** The opened object is not the one that was checked: something on its path was swapped meanwhile. */
export class Swapped extends Error {
  constructor() {
    super("the path changed while it was being opened");
  }
}

/** Whether an open failed because something on the path changed under it (a symlink where a file or directory was). */
export function isSwap(error: unknown): boolean {
  return error instanceof Swapped || (error as NodeJS.ErrnoException | undefined)?.code === "ELOOP";
}

/** A path that reaches `name` in the directory `dir` holds open, wherever that directory is now. */
export function childPath(dir: OpenedDirectory, name: string): string {
  return procFd ? `/proc/self/fd/${dir.handle.fd}/${name}` : join(dir.path, name);
}

/** A path that reaches what `handle` has open (`real` is where it was proved to be). */
export function pathOf(handle: FileHandle, real: string): string {
  return procFd ? `/proc/self/fd/${handle.fd}` : real;
}

/** Throws Swapped unless `handle` is the object at `expected` (an absolute path without symlinks). */
export async function expectOpened(handle: FileHandle, expected: string): Promise<void> {
  if (procFd) {
    if ((await readlink(`/proc/self/fd/${handle.fd}`)) !== expected) throw new Swapped();
    return;
  }
  // Without /proc: the object at the checked path must still be the one that is open.
  const [opened, current, real] = await Promise.all([handle.stat(), stat(expected), realpath(expected)]);
  if (real !== expected || opened.dev !== current.dev || opened.ino !== current.ino) throw new Swapped();
}

/**
 * Opens the directory at `path` (a real path) and proves it is that directory. With `create`,
 * missing directories are made one by one, each inside the one opened and proved before it.
 */
export async function openDirectory(path: string, create: boolean): Promise<OpenedDirectory> {
  try {
    return { handle: await openExpected(path, path), path };
  } catch (error) {
    if (!create || (error as NodeJS.ErrnoException).code !== "ENOENT" || path === "/") throw error;
  }
  const parent = await openDirectory(dirname(path), true);
  try {
    const child = childPath(parent, basename(path));
    await mkdir(child).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    return { handle: await openExpected(child, path), path };
  } finally {
    await parent.handle.close();
  }
}

async function openExpected(path: string, expected: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(path, directoryFlags);
  } catch (error) {
    // O_DIRECTORY with O_NOFOLLOW answers ENOTDIR, not ELOOP, for a symlink.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" && (await lstat(path).catch(() => undefined))?.isSymbolicLink())
      throw new Swapped();
    throw error;
  }
  try {
    await expectOpened(handle, expected);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The directory holding `real` (opened and proved) and the name of `real` inside it. */
export async function openParent(
  real: string,
  create = false,
): Promise<{ dir: OpenedDirectory; name: string }> {
  if (real === "/") return { dir: await openDirectory("/", false), name: "." };
  return { dir: await openDirectory(dirname(real), create), name: basename(real) };
}
