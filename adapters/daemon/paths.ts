import { lstatSync, mkdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where a workspace's exec daemon listens and logs. Light: node builtins only, because the exec
 * client (which must start as fast as node itself) computes it on every event.
 */
export interface DaemonPaths {
  /** The user's folder for hookyard's sockets: `$XDG_RUNTIME_DIR/hookyard`, else `<tmpdir>/hookyard-<uid>`. */
  dir: string;
  /** The unix socket, named by a hash of the workspace root and of the daemon's code. */
  socket: string;
  /** The daemon's stdout and stderr. */
  log: string;
  /** Held (briefly) by a daemon that takes over a stale socket. */
  lock: string;
}

/**
 * The daemon's process entry, the CLI's (cli/daemon/server.ts, which gives the daemon the CLI's
 * error renderer): its path and build time are part of the socket's name. Resolved from here and
 * from the exec client's bundle alike, both two folders below dist/.
 */
export const daemonEntry = fileURLToPath(new URL("../../cli/daemon/server.js", import.meta.url));

/** Unix socket paths longer than this do not fit in sockaddr_un (108 bytes with the NUL). */
export const maxSocketPath = 107;

export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg?.startsWith("/")) return join(xdg, "hookyard");
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return join(tmpdir(), `hookyard-${uid}`);
}

/**
 * The paths for the daemon of `root` (a workspace root, absolute). A daemon from another hookyard
 * (another install, another build) gets other paths, so an exec never talks to older code.
 */
export function daemonPaths(root: string, env: NodeJS.ProcessEnv = process.env): DaemonPaths {
  const dir = runtimeDir(env);
  let build = "";
  try {
    const info = statSync(daemonEntry);
    build = `${info.mtimeMs}:${info.size}`;
  } catch {
    // no daemon module (a broken install): the client finds out when it starts one
  }
  const name = nameHash(`${root}\0${daemonEntry}\0${build}`);
  return {
    dir,
    socket: join(dir, `${name}.sock`),
    log: join(dir, `${name}.log`),
    lock: join(dir, `${name}.lock`),
  };
}

export class UnsafeRuntimeDir extends Error {
  override readonly name = "UnsafeRuntimeDir";
}

/**
 * Throws unless `dir` is a directory of this user's that nobody else may enter (0700): anyone who
 * could put a socket there could answer for the guards. `create` makes it first when missing.
 */
export function checkRuntimeDir(dir: string, create: boolean): void {
  if (create) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new UnsafeRuntimeDir(`cannot make ${dir}: ${(error as Error).message}`);
    }
  }
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(dir);
  } catch (error) {
    throw new UnsafeRuntimeDir(`cannot use ${dir}: ${(error as Error).message}`);
  }
  if (!info.isDirectory()) throw new UnsafeRuntimeDir(`${dir} is not a directory`);
  const uid = typeof process.getuid === "function" ? process.getuid() : info.uid;
  if (info.uid !== uid) throw new UnsafeRuntimeDir(`${dir} belongs to another user (uid ${info.uid})`);
  if ((info.mode & 0o077) !== 0) {
    throw new UnsafeRuntimeDir(
      `other users may enter ${dir} (mode ${(info.mode & 0o777).toString(8)}): run chmod 700 ${dir}`,
    );
  }
}

/**
 * 96 bits of FNV-1a (three 32-bit lanes with different seeds), as hex: a name, not a secret (the
 * folder is the user's alone). Not node:crypto, whose loading alone costs the client 8 ms.
 */
export function nameHash(text: string): string {
  const lanes = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995, 0x9e3779b9];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    for (let lane = 0; lane < lanes.length; lane++) {
      lanes[lane] = Math.imul((lanes[lane] as number) ^ code ^ (lane << 16), 0x01000193);
    }
  }
  return lanes.map((lane) => (lane >>> 0).toString(16).padStart(8, "0")).join("");
}

/**
 * `<runtime dir>/compile-cache`, where V8's compiled code of hookyard's own modules is kept, so the
 * next exec that runs the chain itself, and the next daemon, compile the runner, zod and the rest
 * only once per build. In the user's own 0700 folder, never a shared one: cached code is code this
 * process runs. Undefined when that folder is not safe, or NODE_DISABLE_COMPILE_CACHE says no cache.
 */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    const dir = runtimeDir(env);
    checkRuntimeDir(dir, true);
    return join(dir, "compile-cache");
  } catch {
    return undefined;
  }
}

/** Node's module cache (module.enableCompileCache) for the modules this process loads from here on, in compileCacheDir. */
export function enableCompileCache(dir: string | undefined = compileCacheDir()): void {
  if (dir === undefined) return;
  try {
    const { enableCompileCache } = process.getBuiltinModule("node:module") as typeof import("node:module");
    enableCompileCache?.(dir);
  } catch {
    // no cache: the modules compile as they always did (a read-only folder)
  }
}
