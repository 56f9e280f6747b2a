import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { commandNameSchema, formatGrant, type Grant, pathUnder } from "../capabilities.js";
import type { Check } from "./check.js";
import { BrokerError, fsFailure } from "./errors.js";
import type { BrokerLimits } from "./limits.js";
import type { ExecOptions } from "./methods.js";
import { realpathOr } from "./paths.js";

type ProcessGrant = Extract<Grant, { kind: "process" }>;

/** A granted command, resolved once when the broker is made: later PATH changes cannot swap it. */
export interface GrantedCommand {
  grant: ProcessGrant;
  /** Absolute path it runs; undefined when the name was not found on PATH. */
  path?: string;
}

export interface ExecResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a command's PATH is, whatever the host's: system directories only. */
const systemPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Resolves bare names on the host's PATH, skipping relative entries and directories inside the
 * workspace (a project's node_modules/.bin or a planted ./bin/git must not decide what runs).
 */
export function resolveCommands(
  grants: readonly Grant[],
  rootReal: string,
  hostPath: string | undefined,
): GrantedCommand[] {
  const dirs = (hostPath ?? systemPath)
    .split(":")
    .filter((dir) => isAbsolute(dir) && !pathUnder(realpathOr(dir), rootReal) && !pathUnder(dir, rootReal));
  return grants
    .filter((grant): grant is ProcessGrant => grant.kind === "process")
    .map((grant) => {
      if (isAbsolute(grant.command)) return { grant, path: grant.command };
      const path = dirs.map((dir) => join(dir, grant.command)).find(isExecutableFile);
      return path === undefined ? { grant } : { grant, path };
    });
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Write access to a command (its file or its directory) lets a hook replace what it runs:
 * such a pair of grants is running anything, so it is refused outright.
 */
export function refuseWritableCommands(
  commands: readonly GrantedCommand[],
  grants: readonly Grant[],
  rootReal: string,
) {
  const writable = grants.flatMap((grant) => {
    if (grant.kind !== "fs.write") return [];
    const absolute = isAbsolute(grant.path) ? grant.path : join(rootReal, grant.path);
    return [{ grant, roots: [absolute, realpathOr(absolute)] }];
  });
  for (const command of commands) {
    if (command.path === undefined) continue;
    const files = [command.path, realpathOr(command.path)];
    const exposed = files.flatMap((file) => [file, dirname(file)]);
    for (const { grant, roots } of writable) {
      if (exposed.some((path) => roots.some((root) => pathUnder(path, root)))) {
        throw new BrokerError(
          "BROKER_ERR_OPTIONS",
          `${formatGrant(grant)} can write ${formatGrant(command.grant)} (${command.path}) or its directory: ` +
            "write access to a command lets a hook run anything, so grant one or the other",
        );
      }
    }
  }
}

export interface ExecContext {
  rootReal: string;
  commands: readonly GrantedCommand[];
  limits: BrokerLimits;
  /** HOME and LANG for the child come from here; nothing else does. */
  hostEnv: Readonly<Record<string, string | undefined>>;
}

/** Runs a granted command without a shell, in a process group of its own, with a scrubbed env. */
export async function exec(
  context: ExecContext,
  check: Check,
  command: string,
  args: readonly string[],
  options: ExecOptions | null | undefined,
): Promise<ExecResult> {
  const target = [command, ...args].join(" ");
  const granted = context.commands.find((c) => c.grant.command === command || c.path === command);
  if (!granted) {
    if (!commandNameSchema.safeParse(command).success) {
      throw check.refuse(
        target,
        "BROKER_ERR_BAD_ARGS",
        `"${command}" is not a command name: write a name found on PATH (git) or an absolute path (/usr/bin/git)`,
      );
    }
    throw check.deny(target, `process:${command}`);
  }
  const cwd = await workingDirectory(context.rootReal, options?.cwd ?? ".", check, target);
  check.allow(target, granted.grant);
  if (granted.path === undefined) {
    throw new BrokerError(
      "BROKER_ERR_NOT_FOUND",
      `${command} was not found on PATH when the hook was loaded`,
    );
  }
  const input = options?.input ?? "";
  if (Buffer.byteLength(input) > context.limits.execInputBytes) {
    throw new BrokerError(
      "BROKER_ERR_TOO_LARGE",
      `input is over the ${context.limits.execInputBytes}-byte limit`,
    );
  }
  const timeoutMs = Math.min(options?.timeoutMs ?? Number.POSITIVE_INFINITY, context.limits.execTimeoutMs);
  return run(granted.path, command, args, {
    cwd,
    input,
    timeoutMs,
    outputBytes: context.limits.execOutputBytes,
    env: scrubbedEnv(context.hostEnv),
  });
}

function scrubbedEnv(host: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return {
    PATH: systemPath,
    ...(host.HOME === undefined ? {} : { HOME: host.HOME }),
    LANG: host.LANG ?? "C.UTF-8",
  };
}

/** The child's cwd: like an fs.read path, and its real path must lie inside the workspace. */
async function workingDirectory(
  rootReal: string,
  cwd: string,
  check: Check,
  target: string,
): Promise<string> {
  let real: string;
  try {
    real = await realpath(isAbsolute(cwd) ? cwd : join(rootReal, cwd));
    if (!(await stat(real)).isDirectory()) {
      throw new BrokerError("BROKER_ERR_WRONG_TYPE", `the working directory ${cwd} is not a directory`);
    }
  } catch (error) {
    throw error instanceof BrokerError ? error : fsFailure(error, "run a command in", cwd);
  }
  if (!pathUnder(real, rootReal)) {
    throw check.refuse(target, "BROKER_ERR_REFUSED", `the working directory ${cwd} is outside the workspace`);
  }
  return real;
}

interface RunOptions {
  cwd: string;
  input: string;
  timeoutMs: number;
  outputBytes: number;
  env: Record<string, string>;
}

function run(path: string, shown: string, args: readonly string[], options: RunOptions): Promise<ExecResult> {
  return new Promise<ExecResult>((resolve, reject) => {
    // detached: a process group of its own, so one kill reaches everything the command started.
    const child = spawn(path, args, { cwd: options.cwd, env: options.env, detached: true, stdio: "pipe" });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    };
    let settled = false;
    const fail = (error: BrokerError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new BrokerError("BROKER_ERR_TIMEOUT", `${shown} ran longer than ${options.timeoutMs} ms; killed`),
        ),
      options.timeoutMs,
    );
    const capture = (stream: NodeJS.ReadableStream, name: string) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.outputBytes) {
          fail(
            new BrokerError(
              "BROKER_ERR_TOO_LARGE",
              `${shown} wrote more than ${options.outputBytes} bytes to ${name}; killed`,
            ),
          );
          return;
        }
        chunks.push(chunk);
      });
      return () => Buffer.concat(chunks).toString("utf8");
    };
    const stdout = capture(child.stdout, "stdout");
    const stderr = capture(child.stderr, "stderr");
    child.on("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "ENOENT"
          ? new BrokerError(
              "BROKER_ERR_NOT_FOUND",
              `${shown} is no longer where it was found when the hook was loaded`,
            )
          : new BrokerError(
              "BROKER_ERR_EXEC",
              `${shown} could not be started: ${error.code ?? "unknown error"}`,
            ),
      ),
    );
    // What the command left running in the background goes with it; its pipes then close.
    child.on("exit", killGroup);
    child.on("close", (code) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ code, stdout: stdout(), stderr: stderr() });
    });
    // A command that does not read its stdin makes this write fail with EPIPE: that is its business.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
  });
}
