import { connect, type Socket } from "node:net";
import type { EventAnswer } from "../profile.js";

export type { EventAnswer };

/**
 * The exec daemon's wire protocol, on its unix socket. One request per connection:
 *
 *   client → daemon: one JSON header line (at most `maxHeaderBytes`), then, for an event, exactly
 *   `header.bytes` raw bytes: the agent's stdin as read (at most 8 MiB).
 *   daemon → client: JSON lines: `{"type":"accepted"}` once the daemon has the hooks and runs the
 *   chain, then `{"type":"answer","stdout","stderr","exitCode"}`; or `{"type":"status",…}`; or
 *   `{"type":"error","code","message"}` (another workspace's root, a request too large, …).
 *
 * Light on purpose: the exec client loads this module and node:net, nothing else.
 */
export const protocolVersion = 1;

/** The most a header line may hold: a root path and a few names. */
export const maxHeaderBytes = 64 * 1024;

export type DaemonRequest =
  | { v: number; type: "event"; root: string; profile: string; event: string; bytes: number }
  | { v: number; type: "status"; root: string }
  | { v: number; type: "stop"; root: string };

export interface DaemonStatusReply {
  type: "status";
  pid: number;
  root: string;
  startedAt: string;
  version: string;
  hooks: unknown[];
  problems: unknown[];
  /** Sandboxed hooks quarantined in this daemon's life: they no longer run. */
  quarantined: string[];
  /** Set while the workspace does not load at all (hookyard.json is not JSON): the line exec would print. */
  loadError?: string;
  socket: string;
  log: string;
  idleMs: number;
}

export type DaemonReply =
  | { type: "accepted" }
  | ({ type: "answer" } & EventAnswer)
  | DaemonStatusReply
  | { type: "stopping" }
  | { type: "error"; code: string; message: string };

export type Asked<T> =
  | { ok: true; reply: T }
  /** `accepted`: the daemon had started on the chain when it went away (a kill, a crash). */
  | { ok: false; why: string; code?: string; accepted: boolean };

/**
 * Sends one request and waits for its final reply. `ackMs` bounds the wait for the daemon to take
 * the request (`accepted`, or any final reply); after that, the answer is waited for as long as
 * the chain runs (each hook has its own timeout), unless the connection drops.
 */
export function ask<T extends DaemonReply>(
  socketPath: string,
  request: DaemonRequest,
  body: Buffer | undefined,
  options: { ackMs: number },
): Promise<Asked<T>> {
  return new Promise((resolve) => {
    let socket: Socket;
    let accepted = false;
    let done = false;
    let buffered = "";
    const finish = (result: Asked<T>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, why: `no answer within ${options.ackMs} ms`, accepted }),
      options.ackMs,
    );
    try {
      socket = connect(socketPath);
    } catch (error) {
      done = true;
      clearTimeout(timer);
      resolve({ ok: false, why: (error as Error).message, accepted: false });
      return;
    }
    socket.setEncoding("utf8");
    socket.on("connect", () => {
      socket.write(`${JSON.stringify(request)}\n`);
      if (body && body.length > 0) socket.write(body);
    });
    socket.on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        let reply: DaemonReply;
        try {
          reply = JSON.parse(line) as DaemonReply;
        } catch {
          finish({ ok: false, why: "the daemon's answer is not JSON", accepted });
          return;
        }
        if (reply.type === "accepted") {
          accepted = true;
          clearTimeout(timer);
          continue;
        }
        if (reply.type === "error") {
          finish({ ok: false, why: reply.message, code: reply.code, accepted });
          return;
        }
        finish({ ok: true, reply: reply as T });
        return;
      }
    });
    socket.on("error", (error: NodeJS.ErrnoException) =>
      finish({ ok: false, why: error.message, ...(error.code ? { code: error.code } : {}), accepted }),
    );
    socket.on("close", () =>
      finish({ ok: false, why: "the daemon closed the connection without an answer", accepted }),
    );
  });
}
