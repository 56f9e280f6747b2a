import { AsyncLocalStorage } from "node:async_hooks";
import { Console } from "node:console";
import {
  chmodSync,
  closeSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { Writable } from "node:stream";
import { errorText } from "../../core/errors.js";
import { type Hooks, loadHooks } from "../../runner/load/load-hooks.js";
import type { Logger } from "../../runner/logger.js";
import { hookCount, LiveHooks } from "../live-hooks/live-hooks.js";
import { watchWorkspace } from "../live-hooks/watch.js";
import { type AgentProfile, maxInputBytes } from "../profile.js";
import { profileNamed } from "../profiles.js";
import { registerScriptProtocols } from "../script-protocols.js";
import { errorAnswer, noHookRanAnswer, type RenderError, uncheckedAnswer } from "./answer.js";
import { checkRuntimeDir, type DaemonPaths, daemonPaths } from "./paths.js";
import {
  type DaemonReply,
  type DaemonRequest,
  type DaemonStatusReply,
  type EventAnswer,
  maxHeaderBytes,
  protocolVersion,
} from "./protocol.js";

/** How long a daemon waits for its next event before it exits (HOOKYARD_DAEMON_IDLE_MS). */
export const defaultIdleMs = 10 * 60 * 1000;
/** A log past this size is emptied when a daemon starts. */
const maxLogBytes = 1024 * 1024;
/** A client that connects and sends nothing is dropped after this. */
const requestReadMs = 10_000;

export function idleMsFrom(env: NodeJS.ProcessEnv): number {
  const value = Number(env.HOOKYARD_DAEMON_IDLE_MS);
  return Number.isInteger(value) && value > 0 ? value : defaultIdleMs;
}

/** What one request's hooks print (console, the logger) while its chain runs: that exec's stderr. */
interface RequestLog {
  lines: string[];
  open: boolean;
}

/**
 * Serves `root`'s hooks on its socket until idle (or SIGTERM, or a `stop` request). Returns the exit
 * code: 0 when it stopped, or when another daemon already serves the workspace.
 */
/** What the daemon's process entry gives it of the CLI: its error lines and its version. */
export interface DaemonOptions {
  renderError: RenderError;
  version: string;
}

export async function runDaemon(root: string, { renderError, version }: DaemonOptions): Promise<number> {
  registerScriptProtocols();
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const paths = daemonPaths(root);
  const idleMs = idleMsFrom(process.env);
  const startedAt = new Date().toISOString();

  // Hook output (console, logger lines) of a request goes to that request's stderr; anything else to the log.
  const requests = new AsyncLocalStorage<RequestLog>();
  let loading: string[] | undefined;
  const emit = (text: string) => {
    const request = requests.getStore();
    if (request?.open) request.lines.push(text);
    else if (loading) loading.push(text);
    else process.stderr.write(text);
  };
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      emit(chunk.toString());
      done();
    },
  });
  globalThis.console = new Console({ stdout: sink, stderr: sink });
  const logger: Logger = {
    info: (message) => emit(`hookyard: ${message}\n`),
    warn: (message) => emit(`hookyard: warning: ${message}\n`),
    error: (message) => emit(`hookyard: error: ${message}\n`),
  };
  process.on("unhandledRejection", (reason) =>
    logger.error(`a promise nobody awaited was rejected (a hook missing an await?): ${errorText(reason)}`),
  );

  let server: Server;
  try {
    checkRuntimeDir(paths.dir, true);
    const bound = await bind(paths);
    if (bound === "running") {
      log(`another daemon serves ${root} on ${paths.socket}: this one stops`);
      return 0;
    }
    server = bound;
  } catch (error) {
    log(`cannot listen on ${paths.socket}: ${errorText(error)}`);
    return 1;
  }
  trimLog(paths.log);
  log(`pid ${process.pid} serves ${root} on ${paths.socket}; idle exit after ${idleMs} ms`);

  // What exec prints while it loads (a skipped hook, an unknown field) starts each of its answers.
  const loadLines = new WeakMap<Hooks, string>();
  const load = async (): Promise<Hooks> => {
    const lines: string[] = [];
    loading = lines;
    try {
      const hooks = await loadHooks({ cwd: root, logger });
      loadLines.set(hooks, lines.join(""));
      for (const line of lines) process.stderr.write(line);
      return hooks;
    } finally {
      loading = undefined;
    }
  };
  const workspace = new Workspace(load, log);
  const ready = workspace.start();
  const watcher = watchWorkspace(root, (what) => workspace.changed(what));

  let inFlight = 0;
  let stopping: Promise<void> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      if (inFlight > 0) touch();
      else void stop(`idle for ${idleMs} ms`);
    }, idleMs);
  };
  const stop = (why: string): Promise<void> => {
    stopping ??= (async () => {
      log(`${why}: stopping`);
      clearTimeout(idleTimer);
      watcher.close();
      // Stops taking connections (and removes the socket file) at once; requests in flight finish.
      await new Promise<void>((done) => server.close(() => done()));
      await ready;
      await workspace.close();
      log("stopped");
    })();
    return stopping;
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  touch();

  const answerEvent = async (profile: AgentProfile, event: string, text: string): Promise<EventAnswer> => {
    if (profile.point(event) === undefined) return profile.emptyAnswer();
    let input: unknown;
    try {
      input = profile.parseInput(event, text);
    } catch (error) {
      return uncheckedAnswer(profile, event, error) ?? errorAnswer(error, renderError);
    }
    const live = workspace.live;
    if (!live) return noHookRanAnswer(profile, event, workspace.loadError, renderError);
    const request: RequestLog = { lines: [], open: true };
    try {
      return await requests.run(request, () =>
        live.use(async (hooks) => {
          const answer = await profile.handle(hooks, event, input);
          request.open = false;
          const stderr = `${loadLines.get(hooks) ?? ""}${request.lines.join("")}${answer.stderr}`;
          return { stdout: answer.stdout, stderr, exitCode: answer.exitCode };
        }),
      );
    } catch (error) {
      request.open = false;
      const failed = errorAnswer(error, renderError);
      const line = failed.stderr.trim().replace(/^hookyard: /, "");
      return profile.refusal(event, `its hooks could not run: ${line}`) ?? failed;
    }
  };

  const status = (): DaemonStatusReply => {
    const live = workspace.live;
    return {
      type: "status",
      pid: process.pid,
      root,
      startedAt,
      version,
      hooks: live ? live.hooks.list() : [],
      problems: live ? [...live.hooks.problems] : [],
      quarantined: live ? live.hooks.quarantined() : [],
      ...(workspace.loadError === undefined
        ? {}
        : { loadError: errorAnswer(workspace.loadError, renderError).stderr.trim() }),
      socket: paths.socket,
      log: paths.log,
      idleMs,
    };
  };

  server.on("connection", (socket) => {
    touch();
    inFlight++;
    socket.once("close", () => {
      inFlight--;
      touch();
    });
    readRequest(socket, root, async (request, body) => {
      const send = (reply: DaemonReply) => socket.write(`${JSON.stringify(reply)}\n`);
      if (request.type === "status") {
        await ready;
        send(status());
        socket.end();
        return;
      }
      if (request.type === "stop") {
        send({ type: "stopping" });
        socket.end();
        void stop("asked to stop");
        return;
      }
      await ready;
      if (socket.destroyed) return;
      send({ type: "accepted" });
      // A request naming a profile this daemon does not have was refused with its header.
      const profile = profileNamed(request.profile) as AgentProfile;
      const answer = await answerEvent(profile, request.event, body.toString("utf8"));
      socket.end(`${JSON.stringify({ type: "answer", ...answer } satisfies DaemonReply)}\n`);
    });
  });

  await new Promise<void>((done) => server.once("close", () => done()));
  await stopping;
  return 0;
}

/**
 * The workspace's hooks, warm: serve's LiveHooks (reload on change, swap whole, refuse a reload
 * that would lose a running hook). A workspace that does not load at all is remembered, answered
 * as exec answers it, and tried again on the next change.
 */
class Workspace {
  live: LiveHooks | undefined;
  loadError: unknown;
  private starting: Promise<void> = Promise.resolve();

  constructor(
    private readonly load: () => Promise<Hooks>,
    private readonly log: (line: string) => void,
  ) {}

  start(): Promise<void> {
    this.starting = this.starting.then(async () => {
      if (this.live) return;
      try {
        this.live = await LiveHooks.start(this.load, this.log);
        this.loadError = undefined;
        this.log(`${hookCount(this.live.hooks)} hook(s) loaded`);
      } catch (error) {
        this.loadError = error;
        this.log(`the workspace does not load: ${errorText(error)}`);
      }
    });
    return this.starting;
  }

  changed(what: string): void {
    if (this.live) void this.live.reload(`${what} changed`);
    else void this.start();
  }

  async close(): Promise<void> {
    await this.starting;
    await this.live?.close();
  }
}

/** Reads one request: a header line, then its body; anything malformed is answered with an error. */
function readRequest(
  socket: Socket,
  root: string,
  handle: (request: DaemonRequest, body: Buffer) => Promise<void>,
): void {
  let header: DaemonRequest | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let expected = 0;
  const refuse = (code: string, message: string) => {
    socket.end(`${JSON.stringify({ type: "error", code, message } satisfies DaemonReply)}\n`);
    socket.removeAllListeners("data");
  };
  socket.setTimeout(requestReadMs, () => socket.destroy());
  socket.on("error", () => socket.destroy());
  socket.on("data", (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (header === undefined) {
      const end = pending.indexOf(10);
      if (end < 0) {
        if (pending.length > maxHeaderBytes)
          refuse("DAEMON_TOO_LARGE", `a header is at most ${maxHeaderBytes} bytes`);
        return;
      }
      if (end > maxHeaderBytes)
        return refuse("DAEMON_TOO_LARGE", `a header is at most ${maxHeaderBytes} bytes`);
      let parsed: Partial<DaemonRequest> & { v?: unknown; bytes?: unknown };
      try {
        parsed = JSON.parse(pending.subarray(0, end).toString("utf8")) as typeof parsed;
      } catch {
        return refuse("DAEMON_BAD_REQUEST", "the header is not JSON");
      }
      if (parsed?.v !== protocolVersion) {
        return refuse("DAEMON_BAD_REQUEST", `this daemon speaks protocol ${protocolVersion}`);
      }
      if (parsed.root !== root) {
        return refuse("DAEMON_WRONG_ROOT", `this daemon serves ${root}, not ${String(parsed.root)}`);
      }
      if (parsed.type === "event") {
        const bytes = parsed.bytes;
        if (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 0) {
          return refuse("DAEMON_BAD_REQUEST", "an event needs its size in bytes");
        }
        if (bytes > maxInputBytes) {
          return refuse("DAEMON_TOO_LARGE", `an event's input is at most ${maxInputBytes} bytes`);
        }
        if (typeof parsed.event !== "string" || typeof parsed.profile !== "string") {
          return refuse("DAEMON_BAD_REQUEST", "an event needs its profile and its name");
        }
        if (profileNamed(parsed.profile) === undefined) {
          return refuse("DAEMON_BAD_REQUEST", `this daemon has no profile ${JSON.stringify(parsed.profile)}`);
        }
        expected = bytes;
      } else if (parsed.type !== "status" && parsed.type !== "stop") {
        return refuse("DAEMON_BAD_REQUEST", `unknown request ${JSON.stringify(parsed.type)}`);
      }
      header = parsed as DaemonRequest;
      pending = pending.subarray(end + 1);
    }
    if (pending.length > expected) return refuse("DAEMON_BAD_REQUEST", "more bytes than the header said");
    if (pending.length < expected) return;
    const request = header;
    socket.removeAllListeners("data");
    socket.setTimeout(0);
    handle(request, pending).catch((error: unknown) => {
      socket.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/**
 * Listens on the socket, which is also the lock: only one bind of a path succeeds. A socket file
 * that answers belongs to a live daemon ("running"); one that does not was left by a daemon that
 * was killed, and is taken over under a lock file, so two daemons starting at once cannot both
 * remove it and one of them lose its socket.
 */
async function bind(paths: DaemonPaths): Promise<Server | "running"> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const server = await listenOn(paths.socket);
    if (server) return server;
    if (await answers(paths.socket)) return "running";
    if (!takeLock(paths.lock)) {
      await sleep(10);
      continue;
    }
    try {
      if (await answers(paths.socket)) return "running";
      rmSync(paths.socket, { force: true });
      const taken = await listenOn(paths.socket);
      if (taken) return taken;
    } finally {
      rmSync(paths.lock, { force: true });
    }
  }
  throw new Error("the socket is held by a daemon that neither answers nor lets go");
}

/** A server listening on `path` (mode 0600), or undefined when something is there already. */
async function listenOn(path: string): Promise<Server | undefined> {
  const server = createServer();
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((done, fail) => {
      server.once("error", fail);
      server.listen(path, () => {
        server.off("error", fail);
        done();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return undefined;
    throw error;
  } finally {
    process.umask(umask);
  }
  chmodSync(path, 0o600);
  return server;
}

function answers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      done(true);
    });
    probe.once("error", () => done(false));
  });
}

/** The take-over lock: a file made exclusively, holding its pid; a holder that died leaves it to the next. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx", 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  let holder = Number.NaN;
  try {
    holder = Number(readFileSync(lock, "utf8"));
  } catch {
    return false;
  }
  let alive = false;
  try {
    if (Number.isInteger(holder) && holder > 0) {
      process.kill(holder, 0);
      alive = true;
    }
  } catch (error) {
    alive = (error as NodeJS.ErrnoException).code === "EPERM";
  }
  // A lock is held for a few milliseconds: one whose holder is gone, or that is old, is stale.
  const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
  if (!alive || age > 5000) rmSync(lock, { force: true });
  return false;
}

function trimLog(path: string): void {
  try {
    if (statSync(path).size > maxLogBytes) truncateSync(path, 0);
  } catch {
    // no log (started by hand): nothing to trim
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
