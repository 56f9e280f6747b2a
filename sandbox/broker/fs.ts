import { constants } from "node:fs";
import { type FileHandle, lstat, open, readdir } from "node:fs/promises";
import { type FileStat, fileStatOf } from "../file-stat.js";
import type { Check } from "./check.js";
import { BrokerError, fsFailure } from "./errors.js";
import type { BrokerLimits } from "./limits.js";
import { childPath, expectOpened, isSwap, type OpenedDirectory, openParent, pathOf } from "./opened.js";
import { type Authorised, authorise, type FsScope } from "./paths.js";

export type { FileStat };

// O_NONBLOCK: opening a FIFO must not hang the call; O_NOCTTY: a terminal must not become ours.
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
// No O_TRUNC: a file is emptied only after it proved to be ours (one link, inside the grant).
const writeFlags =
  constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

export function fsMethods(scope: FsScope, limits: BrokerLimits) {
  return {
    async readFile(check: Check, path: string): Promise<string> {
      const target = await authorise(scope, "fs.read", path, check, "read");
      return withOpened(target, check, "read", readFlags, false, async (handle) => {
        const info = await handle.stat();
        if (!info.isFile()) throw notAFile(target.shown, info.isDirectory());
        if (info.size > limits.readBytes) throw tooLarge(target.shown, limits.readBytes);
        return (await readCapped(handle, limits.readBytes, target.shown)).toString("utf8");
      });
    },

    async writeFile(check: Check, path: string, data: string): Promise<null> {
      const target = await authorise(scope, "fs.write", path, check, "write");
      if (Buffer.byteLength(data) > limits.writeBytes) {
        throw new BrokerError(
          "BROKER_ERR_TOO_LARGE",
          `cannot write ${target.shown}: the content is over the ${limits.writeBytes}-byte limit`,
        );
      }
      return withOpened(target, check, "write", writeFlags, true, async (handle) => {
        const info = await handle.stat();
        if (!info.isFile()) throw notAFile(target.shown, info.isDirectory());
        // Another link to this file may be outside the grant: writing it would write there.
        if (info.nlink > 1) {
          throw check.refuse(
            target.shown,
            "BROKER_ERR_REFUSED",
            `cannot write ${target.shown}: it has ${info.nlink} hard links, and another may be outside the grant`,
          );
        }
        await handle.truncate(0);
        await handle.writeFile(data);
        return null;
      });
    },

    async readdir(check: Check, path: string): Promise<string[]> {
      const target = await authorise(scope, "fs.read", path, check, "list");
      return withOpened(target, check, "list", readFlags, false, async (handle) => {
        if (!(await handle.stat()).isDirectory()) {
          throw new BrokerError("BROKER_ERR_WRONG_TYPE", `${target.shown} is not a directory`);
        }
        const names = (await readdir(pathOf(handle, target.real))).sort();
        const bytes = names.reduce((sum, name) => sum + Buffer.byteLength(name) + 1, 0);
        if (bytes > limits.readBytes) throw tooLarge(target.shown, limits.readBytes);
        return names;
      });
    },

    async stat(check: Check, path: string): Promise<FileStat> {
      const target = await authorise(scope, "fs.read", path, check, "stat");
      return inParent(target, check, "stat", false, async (dir, name) => {
        return fileStatOf(await lstat(childPath(dir, name)));
      });
    },
  };
}

/** Runs `use` with the proved parent directory of the target, mapping failures to messages the hook may see. */
async function inParent<T>(
  target: Authorised,
  check: Check,
  action: string,
  create: boolean,
  use: (dir: OpenedDirectory, name: string) => Promise<T>,
): Promise<T> {
  let opened: { dir: OpenedDirectory; name: string } | undefined;
  try {
    opened = await openParent(target.real, create);
    return await use(opened.dir, opened.name);
  } catch (error) {
    throw failure(error, target, check, action);
  } finally {
    await opened?.dir.handle.close();
  }
}

/** Opens the target itself through its proved parent, proves it too, and runs `use` on it. */
function withOpened<T>(
  target: Authorised,
  check: Check,
  action: string,
  flags: number,
  create: boolean,
  use: (handle: FileHandle) => Promise<T>,
): Promise<T> {
  return inParent(target, check, action, create, async (dir, name) => {
    const handle = await open(childPath(dir, name), flags, 0o666);
    try {
      await expectOpened(handle, target.real);
      return await use(handle);
    } finally {
      await handle.close();
    }
  });
}

function failure(error: unknown, target: Authorised, check: Check, action: string): Error {
  if (error instanceof BrokerError) return error;
  if (isSwap(error)) {
    return check.refuse(
      target.shown,
      "BROKER_ERR_REFUSED",
      `cannot ${action} ${target.shown}: a symbolic link was in the way or something on its path was swapped while it was opened`,
    );
  }
  return fsFailure(error, action, target.shown);
}

async function readCapped(handle: FileHandle, cap: number, shown: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, cap + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    // A file that grew after fstat (or a /proc file, which reports size 0) stops at the cap.
    if (total > cap) throw tooLarge(shown, cap);
    chunks.push(chunk.subarray(0, bytesRead));
  }
}

function tooLarge(shown: string, cap: number): BrokerError {
  return new BrokerError("BROKER_ERR_TOO_LARGE", `${shown} is over the ${cap}-byte read limit`);
}

function notAFile(shown: string, directory: boolean): BrokerError {
  return new BrokerError(
    "BROKER_ERR_WRONG_TYPE",
    `${shown} is ${directory ? "a directory" : "not a regular file (a device, FIFO or socket)"}`,
  );
}
