import { chmod, lstat, rm } from "node:fs/promises";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { hookCount, LiveHooks } from "../../adapters/live-hooks/live-hooks.js";
import { watchWorkspace } from "../../adapters/live-hooks/watch.js";
import { buildServeApp } from "../../adapters/serve/app.js";
import { serveTokenFile } from "../../adapters/serve/defaults.js";
import { errorText } from "../../core/errors.js";
import { loadHooks } from "../../runner/load/load-hooks.js";
import type { Logger } from "../../runner/logger.js";
import type { CliContext } from "../command.js";
import { CliError, exitCodes } from "../errors.js";
import { newServeToken, readServeToken, removeServeToken, writeServeToken } from "./token.js";

export interface ServeOptions {
  port: number;
  host: string;
  socket?: string;
  tokenFile?: string;
}

/** Runs until SIGINT or SIGTERM; the hooks stay loaded (and the sandbox process up) in between. */
export async function runServe(context: CliContext, options: ServeOptions): Promise<number> {
  const log = (line: string) => context.stderr.write(`hookyard serve: ${line}\n`);
  const logger: Logger = {
    info: (message) => log(message),
    warn: (message) => log(`warning: ${message}`),
    error: (message) => log(`error: ${message}`),
  };
  // Only --host can name another address: listening beyond this machine is then the user's choice, said out loud.
  if (!isLoopback(options.host)) {
    log(
      `warning: ${options.host} is reachable from other machines: the token is all that stands in the way, and nothing is encrypted`,
    );
  }
  // A trusted hook that starts a promise and forgets it must not take the daemon down with it.
  const unhandled = (reason: unknown) =>
    logger.error(`a promise nobody awaited was rejected (a hook missing an await?): ${errorText(reason)}`);
  process.on("unhandledRejection", unhandled);
  try {
    return await serveUntilStopped(context, options, log, logger);
  } finally {
    process.off("unhandledRejection", unhandled);
  }
}

async function serveUntilStopped(
  context: CliContext,
  options: ServeOptions,
  log: (line: string) => void,
  logger: Logger,
): Promise<number> {
  const live = await LiveHooks.start(async () => loadHooks({ cwd: context.cwd, logger }), log);
  const root = live.hooks.root;
  let token: string;
  let written: string | undefined;
  try {
    if (options.tokenFile) token = await readServeToken(resolve(context.cwd, options.tokenFile));
    else {
      token = newServeToken();
      written = join(root, serveTokenFile);
      await writeServeToken(written, token);
    }
  } catch (error) {
    await live.close();
    throw error;
  }
  const app = buildServeApp({ live, token, log });
  const watcher = watchWorkspace(root, (what) => void live.reload(`${what} changed`));
  const stop = async () => {
    watcher.close();
    await app.close();
    await live.close();
    if (written) await removeServeToken(written, token);
  };
  let address: string;
  try {
    const target: ListenTarget = options.socket
      ? { socket: resolve(context.cwd, options.socket) }
      : { port: options.port, host: options.host };
    address = await listen(app, target);
  } catch (error) {
    await stop();
    throw error;
  }
  if (written) log(`token (shown this once; also in ${written}, readable by you only): ${token}`);
  log(
    `${hookCount(live.hooks)} hook(s) loaded from ${root}; reloading when hookyard.json, hookyard.lock or .hookyard/hooks/ change`,
  );
  context.stderr.write(`listening on ${address}\n`);

  const signal = await new Promise<NodeJS.Signals>((done) => {
    const received = (name: NodeJS.Signals) => {
      process.off("SIGINT", received);
      process.off("SIGTERM", received);
      done(name);
    };
    process.on("SIGINT", received);
    process.on("SIGTERM", received);
  });
  log(`${signal}: answering the requests in flight, then stopping`);
  await stop();
  log("stopped");
  return exitCodes.ok;
}

type ListenTarget = { socket: string } | { port: number; host: string };

async function listen(app: ReturnType<typeof buildServeApp>, target: ListenTarget): Promise<string> {
  const where = "socket" in target ? target.socket : `${target.host}:${target.port}`;
  try {
    if ("socket" in target) {
      await removeStaleSocket(target.socket);
      await app.listen({ path: target.socket });
      await chmod(target.socket, 0o600);
      return `unix:${target.socket}`;
    }
    await app.listen({ port: target.port, host: target.host });
  } catch (error) {
    if (error instanceof CliError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    const hint =
      code === "EADDRINUSE"
        ? "something listens there already: stop it, or pass another --port or --socket"
        : "pass a --host this machine has and a --port you may use";
    throw new CliError(
      "CLI_ERR_SERVE_LISTEN",
      `cannot listen on ${where}: ${message} (${hint})`,
      exitCodes.error,
      {
        cause: error,
      },
    );
  }
  const bound = app.server.address();
  if (bound === null || typeof bound === "string") return String(bound);
  const host = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return `http://${host}:${bound.port}`;
}

/** A socket file left by a daemon that was killed answers no one: it may go. Anything else stays. */
async function removeStaleSocket(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => undefined);
  if (stats === undefined) return;
  if (!stats.isSocket()) {
    throw new CliError("CLI_ERR_SERVE_LISTEN", `cannot listen on ${path}: it exists and is not a socket`);
  }
  const alive = await new Promise<boolean>((done) => {
    const probe = connect(path);
    probe.once("connect", () => {
      probe.destroy();
      done(true);
    });
    probe.once("error", () => done(false));
  });
  if (alive)
    throw new CliError("CLI_ERR_SERVE_LISTEN", `cannot listen on ${path}: a server answers there already`);
  await rm(path, { force: true });
}

export function isLoopback(host: string): boolean {
  return (
    host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host) || /^::ffff:127\./i.test(host)
  );
}
