import { closeSync, openSync, readSync, statSync, writeSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import {
  checkRuntimeDir,
  compileCacheDir,
  type DaemonPaths,
  daemonEntry,
  daemonPaths,
  enableCompileCache,
  maxSocketPath,
} from "../../adapters/daemon/paths.js";
import { type Asked, ask, type EventAnswer, protocolVersion } from "../../adapters/daemon/protocol.js";
import { maxInputBytes, type ProfileEvents } from "../../adapters/profile.js";
import { profileEvents } from "../../adapters/profile-events.js";
import { findWorkspaceRootSync } from "../../workspace/root.js";
import { runInProcessBundle } from "./in-process-script.js";

/**
 * `hookyard exec` as the agent runs it: a thin client of the workspace's daemon (cli/daemon/
 * daemon.ts), which keeps the hooks loaded. It loads node builtins and a few small modules, never
 * the runner, zod, commander or esbuild, so a warm event costs about a bare node start.
 *
 * 1. The daemon answers: its bytes are printed, its exit code is the exit code.
 * 2. None answers: this event is answered in this process, then a daemon is started in the
 *    background (detached, its output to its log); the next events find the daemon warm.
 * 3. It cannot start, does not answer in time, or goes away: the chain runs in this process too.
 * 4. Neither gives an answer at PreToolUse or UserPromptSubmit: the event is refused, in that
 *    agent's protocol, with what failed. A blockable event never passes without a chain having run.
 *
 * HOOKYARD_EXEC_ROUTE: `auto` (the default, as above), `inprocess` (no daemon), `daemon` (no
 * fallback: the daemon, waited for when it starts (HOOKYARD_DAEMON_START_MS), or a refusal).
 */

interface ExecArgs {
  profile: ProfileEvents;
  event: string;
  cwd: string | undefined;
}

/**
 * Answers `hookyard exec …` from the bin, before the CLI loads; false when the arguments are not
 * the plain form (`--help`, `--debug`, an unknown event or option): the full CLI handles those.
 */
export async function execFromBin(argv: readonly string[]): Promise<boolean> {
  const args = plainExecArgs(argv);
  if (!args) return false;
  const { chunks, size } = await readStdin();
  const route = process.env.HOOKYARD_EXEC_ROUTE ?? "auto";
  let why = "";
  try {
    const routed = await routeToDaemon(route, args, chunks, size);
    if (routed === true) return true;
    why = routed;
  } catch (error) {
    // A bug here must not cost the event its guards: the in-process path still answers.
    why = `the exec client failed (${(error as Error).message})`;
    writeAll(2, `hookyard: warning: ${why}: answering in this process instead\n`);
  }
  if (route === "daemon" && why !== "") {
    write(
      args.profile.refusal(
        args.event,
        `${why}, and HOOKYARD_EXEC_ROUTE=daemon runs no hook in the exec process`,
      ) ?? {
        stdout: "",
        stderr: `hookyard: error: ${why}\n`,
        exitCode: 1,
      },
    );
    return true;
  }
  await inProcess(args, chunks, why);
  try {
    daemonToStart?.();
  } catch (error) {
    // The next event tries again; this one is answered.
    writeAll(2, `hookyard: warning: the hookyard daemon did not start: ${(error as Error).message}\n`);
  }
  return true;
}

/**
 * The agent's stdin, up to just past the cap (beyond it the in-process path refuses it, having read
 * no further either). Read with plain reads while they work (the agent's pipe blocks), which builds
 * no stream; a non-blocking or odd stdin is read as process.stdin from where the reads stopped.
 */
async function readStdin(): Promise<{ chunks: Buffer[]; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const read = readSync(0, buffer, 0, buffer.length, null);
      if (read === 0) return { chunks, size };
      chunks.push(buffer.subarray(0, read));
      size += read;
      if (size > maxInputBytes) return { chunks, size };
    }
  } catch {
    // EAGAIN and the like: the stream below reads the rest
  }
  for await (const chunk of process.stdin) {
    const bytes = chunk as Buffer;
    chunks.push(bytes);
    size += bytes.length;
    if (size > maxInputBytes) break;
  }
  return { chunks, size };
}

/** True once the daemon's answer is written; else why the daemon did not answer ("" when not asked). */
async function routeToDaemon(
  route: string,
  args: ExecArgs,
  chunks: Buffer[],
  size: number,
): Promise<true | string> {
  if (route === "inprocess" || size > maxInputBytes) return "";
  const body = Buffer.concat(chunks);
  const root = await rootFor(body, args.cwd);
  if (root === undefined) return "";
  const result = await viaDaemon(root, daemonPaths(root), args, body, route === "daemon");
  if ("answer" in result) {
    write(result.answer);
    return true;
  }
  if (route !== "daemon" && !result.starting) {
    writeAll(2, `hookyard: warning: ${result.why}: answering in this process instead\n`);
  }
  return result.why;
}

/** `exec --profile <agent> <Event>` with at most `--cwd <dir>` besides, the event one hookyard maps. */
function plainExecArgs(argv: readonly string[]): ExecArgs | undefined {
  let cwd: string | undefined;
  let profile: string | undefined;
  let event: string | undefined;
  let command = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = (name: string): string | undefined => {
      if (arg === name) return argv[++i];
      return arg.startsWith(`${name}=`) ? arg.slice(name.length + 1) : undefined;
    };
    if (arg === "--cwd" || arg.startsWith("--cwd=")) cwd = value("--cwd");
    else if (command && (arg === "--profile" || arg.startsWith("--profile="))) profile = value("--profile");
    else if (arg.startsWith("-")) return undefined;
    else if (!command) {
      if (arg !== "exec") return undefined;
      command = true;
    } else if (event === undefined) event = arg;
    else return undefined;
  }
  const events = profile === undefined ? undefined : profileEvents(profile);
  if (!command || events === undefined || event === undefined || events.point(event) === undefined) {
    return undefined;
  }
  if (cwd !== undefined) {
    cwd = resolve(cwd);
    if (!isDirectory(cwd)) return undefined; // the CLI's own error
  }
  return { profile: events, event, cwd };
}

/** The workspace root exec would use: from the input's cwd (an existing absolute directory), else --cwd, else here. */
async function rootFor(body: Buffer, cwdOption: string | undefined): Promise<string | undefined> {
  let input: unknown;
  try {
    input = JSON.parse(body.toString("utf8"));
  } catch {
    return undefined; // the in-process path refuses it, with the reason
  }
  if (typeof input !== "object" || input === null) return undefined;
  const cwd = (input as { cwd?: unknown }).cwd;
  const dir =
    typeof cwd === "string" && isAbsolute(cwd) && isDirectory(cwd) ? cwd : (cwdOption ?? process.cwd());
  return findWorkspaceRootSync(dir);
}

/** Set when no daemon was up: starts one in the background, after this event's answer is written. */
let daemonToStart: (() => void) | undefined;

/** `starting`: no daemon was up, and one is starting in the background for the next events. */
type ViaDaemon = { answer: EventAnswer } | { why: string; starting?: boolean };

async function viaDaemon(
  root: string,
  paths: DaemonPaths,
  { profile, event }: ExecArgs,
  body: Buffer,
  wait: boolean,
): Promise<ViaDaemon> {
  if (Buffer.byteLength(paths.socket) > maxSocketPath) {
    return {
      why: `the daemon's socket path ${paths.socket} is too long for a unix socket (set XDG_RUNTIME_DIR to a shorter folder)`,
    };
  }
  const ackMs = envMs("HOOKYARD_DAEMON_TIMEOUT_MS", 3000);
  const request = () =>
    ask<{ type: "answer" } & EventAnswer>(
      paths.socket,
      { v: protocolVersion, type: "event", root, profile: profile.name, event, bytes: body.length },
      body,
      { ackMs },
    );
  let asked: Asked<{ type: "answer" } & EventAnswer> | undefined;
  try {
    checkRuntimeDir(paths.dir, false);
    asked = await request();
  } catch {
    // no runtime dir yet: the daemon that starts makes it
  }
  if (asked?.ok) return { answer: asked.reply };
  if (asked?.accepted)
    return { why: `the hookyard daemon went away before it answered (${asked.why}; its log: ${paths.log})` };
  if (asked && asked.code !== "ENOENT" && asked.code !== "ECONNREFUSED") {
    return { why: `the hookyard daemon did not answer (${asked.why}; its log: ${paths.log})` };
  }
  return startDaemon(paths, root, wait ? request : undefined);
}

/**
 * Starts the workspace's daemon in the background. With `request` (HOOKYARD_EXEC_ROUTE=daemon),
 * asks it as soon as it listens; without, leaves it starting for the next events: this one is
 * answered in this process at once, which costs less than waiting for a daemon to load the hooks.
 */
async function startDaemon(
  paths: DaemonPaths,
  root: string,
  request: (() => ReturnType<typeof ask<{ type: "answer" } & EventAnswer>>) | undefined,
): Promise<ViaDaemon> {
  let logFd: number;
  try {
    checkRuntimeDir(paths.dir, true);
    logFd = openSync(paths.log, "a", 0o600);
  } catch (error) {
    return { why: `the hookyard daemon cannot start: ${(error as Error).message}` };
  }
  let exited: string | undefined;
  const launch = () => {
    const { spawn } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");
    try {
      const child = spawn(process.execPath, ["--no-node-snapshot", daemonEntry, root], {
        cwd: root,
        detached: true,
        stdio: ["ignore", logFd, logFd],
        env: process.env,
      });
      child.on("error", (error) => (exited = error.message));
      // Exit 0: another exec's daemon won the socket, and is the one to ask.
      child.on("exit", (code, signal) => {
        if (code !== 0) exited = signal ? `killed by ${signal}` : `exit code ${code}`;
      });
      child.unref();
    } finally {
      closeSync(logFd);
    }
  };
  if (request === undefined) {
    // Started once this event is answered: loading the hooks twice at once (here and in the
    // daemon) would make this event, the one the agent waits for, share the CPU with the daemon.
    daemonToStart = launch;
    return {
      why: `the hookyard daemon is not up yet (one is starting; its log: ${paths.log})`,
      starting: true,
    };
  }
  launch();
  const deadline = Date.now() + envMs("HOOKYARD_DAEMON_START_MS", 5000);
  for (;;) {
    const asked = await request();
    if (asked.ok) return { answer: asked.reply };
    if (asked.accepted)
      return {
        why: `the hookyard daemon went away before it answered (${asked.why}; its log: ${paths.log})`,
      };
    if (exited !== undefined)
      return { why: `the hookyard daemon did not start (${exited}; its log: ${paths.log})` };
    if (asked.code !== "ENOENT" && asked.code !== "ECONNREFUSED") {
      return { why: `the hookyard daemon did not answer (${asked.why}; its log: ${paths.log})` };
    }
    if (Date.now() > deadline)
      return { why: `the hookyard daemon did not start in time (its log: ${paths.log})` };
    await new Promise((done) => setTimeout(done, 10));
  }
}

/**
 * Today's path: exec's command in this process, on the stdin already read. If it gives no answer
 * (it fails, or a hook ends the process) at a blockable event, the event is refused.
 */
async function inProcess({ profile, event, cwd }: ExecArgs, chunks: Buffer[], why: string): Promise<void> {
  const stdout: string[] = [];
  let lastError = "";
  let answered = false;
  const refusal = (failure: string) =>
    profile.refusal(
      event,
      `${why ? `${why}, and ` : ""}running its hooks in the exec process ${failure}; run the event again with --debug to see why`,
    );
  // A hook that calls process.exit, or an error nothing catches, must not leave the event unanswered.
  const onExit = (code: number) => {
    if (answered) return;
    const refused = refusal(`ended it (exit code ${code}) before an answer`);
    if (!refused) return;
    writeSync(1, refused.stdout);
    writeSync(2, refused.stderr);
    process.exitCode = refused.exitCode;
  };
  process.on("exit", onExit);
  let code: number;
  let bundle: ReturnType<typeof runInProcessBundle>;
  try {
    const cacheDir = compileCacheDir();
    enableCompileCache(cacheDir);
    bundle = runInProcessBundle(cacheDir);
    // exec's own command, without the CLI around it (commander and every other command's module):
    // the plain form needs no parsing, and errors are rendered as the CLI renders them.
    const [{ execCommand, renderError }, { Readable, Writable }] = await Promise.all([
      bundle?.exports ?? import("./in-process.js"),
      import("node:stream"),
    ]);
    // Streams, not bare writers: exec builds a Console on its stderr for the hooks' output.
    const sink = (keep: (text: string) => void) =>
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          keep(chunk.toString());
          done();
        },
      });
    const stderr = sink((text) => {
      process.stderr.write(text);
      lastError = text.trim().split("\n").pop() ?? lastError;
    });
    try {
      code =
        (await execCommand.run(
          {
            cwd: cwd ?? process.cwd(),
            stdout: sink((text) => stdout.push(text)),
            stderr,
            stdin: Readable.from(chunks),
            env: process.env,
            color: false,
            debug: false,
          },
          [event],
          { profile: profile.name },
        )) ?? 0;
    } catch (error) {
      const rendered = renderError(error);
      stderr.write(`${rendered.line}\n`);
      code = rendered.exitCode;
    }
  } catch (error) {
    code = 1;
    lastError = (error as Error).message;
  }
  answered = true;
  process.off("exit", onExit);
  // Exit 0 is an answer; exit 2 is a blocked prompt (or a usage error: at a blockable event, a block
  // too). Any other failure at a blockable event is refused (elsewhere profile.refusal is undefined).
  if (code !== 0 && code !== 2) {
    const refused = refusal(
      `failed (exit code ${code}${lastError ? `: ${lastError.replace(/^hookyard: /, "")}` : ""})`,
    );
    if (refused) {
      write(refused);
      return;
    }
  }
  writeAll(1, stdout.join(""));
  process.exitCode = code;
  bundle?.saveCache();
}

function write(answer: EventAnswer): void {
  if (answer.stdout) writeAll(1, answer.stdout);
  if (answer.stderr) writeAll(2, answer.stderr);
  process.exitCode = answer.exitCode;
}

/** Written at once with plain writes (no stream to build); what a full non-blocking pipe refuses goes through the stream. */
function writeAll(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EPIPE") return; // the reader went away
  }
  (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(at));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function envMs(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
