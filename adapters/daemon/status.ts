import { daemonPaths } from "./paths.js";
import { ask, type DaemonStatusReply, protocolVersion } from "./protocol.js";

export type DaemonStatus =
  | { running: false; socket: string; why: string }
  | ({ running: true } & Omit<DaemonStatusReply, "type">);

/**
 * Whether the exec daemon of the workspace at `root` (a root as findWorkspaceRoot gives it) is up,
 * and what it has loaded: `hooks` as `Hooks.list()` gives them, `problems` as `Hooks.problems`.
 * For `hookyard status`; never starts a daemon.
 */
export async function daemonStatus(
  root: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<DaemonStatus> {
  const { socket } = daemonPaths(root, options.env);
  const asked = await ask<DaemonStatusReply>(
    socket,
    { v: protocolVersion, type: "status", root },
    undefined,
    { ackMs: options.timeoutMs ?? 2000 },
  );
  if (!asked.ok) return { running: false, socket, why: asked.why };
  const { type: _type, ...status } = asked.reply;
  return { running: true, ...status };
}

/** Asks the workspace's daemon to stop (it answers the requests in flight first); false when none answered. */
export async function stopDaemon(
  root: string,
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<boolean> {
  const { socket } = daemonPaths(root, options.env);
  const asked = await ask(socket, { v: protocolVersion, type: "stop", root }, undefined, {
    ackMs: options.timeoutMs ?? 2000,
  });
  return asked.ok;
}
