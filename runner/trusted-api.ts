import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { errorText } from "../core/errors.js";
import type { ExecResult, HookApi } from "../core/hook.js";
import { fileStatOf } from "../sandbox/file-stat.js";
import type { Logger } from "./logger.js";
import type { HookState } from "./state.js";

export interface TrustedApiOptions {
  hook: string;
  /** Workspace root: relative paths resolve from here. */
  root: string;
  state: HookState;
  logger: Logger;
  /** The hook's `config` from hookyard.json (default `{}`). */
  config?: Readonly<Record<string, unknown>>;
}

const execTimeoutMs = 30_000;
const execOutputCap = 4 * 1024 * 1024;

/** The unrestricted API for builtin and workspace hooks. Same shape as the sandbox's granted API. */
export function trustedApi(options: TrustedApiOptions): HookApi {
  const at = (path: string) => resolve(options.root, path);
  return {
    hook: options.hook,
    config: deepFrozenCopy(options.config ?? {}),
    fs: {
      readFile: (path) => readFile(at(path), "utf8"),
      writeFile: async (path, data) => {
        await mkdir(dirname(at(path)), { recursive: true });
        await writeFile(at(path), data);
      },
      readdir: async (path) => (await readdir(at(path))).sort(),
      stat: async (path) => fileStatOf(await stat(at(path))),
    },
    net: {
      fetch: async (url, init) => {
        const { timeoutMs, ...request } = init ?? {};
        const limit = Math.min(timeoutMs ?? execTimeoutMs, execTimeoutMs);
        const response = await fetch(url, { ...request, signal: AbortSignal.timeout(limit) });
        return {
          status: response.status,
          headers: Object.fromEntries(response.headers),
          body: await response.text(),
        };
      },
    },
    process: {
      exec: (command, args = [], opts = {}) =>
        new Promise<ExecResult>((done) => {
          const child = execFile(
            command,
            args,
            {
              cwd: opts.cwd ? at(opts.cwd) : options.root,
              timeout: opts.timeoutMs ?? execTimeoutMs,
              maxBuffer: execOutputCap,
              encoding: "utf8",
            },
            (error, stdout, stderr) => {
              const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
              done({ code, stdout, stderr: stderr || (error && code === null ? error.message : "") });
            },
          );
          child.stdin?.on("error", () => {});
          child.stdin?.end(opts.input ?? "");
        }),
    },
    env: { get: async (name) => process.env[name] },
    log: (...parts) => options.logger.info(`[${options.hook}] ${parts.map(String).join(" ")}`),
    state: {
      get: (key) => options.state.get(key),
      // A hook may not await its set; a failed write must still reach the user.
      set: (key, value) => {
        const write = options.state.set(key, value);
        write.catch((error: unknown) =>
          options.logger.error(`hook "${options.hook}": state "${key}" was not saved: ${errorText(error)}`),
        );
        return write;
      },
    },
  };
}

/** A copy the hook cannot change for the next call or for other hooks: config is the user's word. */
function deepFrozenCopy<T>(value: T): T {
  const copy = structuredClone(value);
  const freezeAll = (item: unknown): void => {
    if (item === null || typeof item !== "object" || Object.isFrozen(item)) return;
    Object.freeze(item);
    for (const child of Object.values(item)) freezeAll(child);
  };
  freezeAll(copy);
  return copy;
}
