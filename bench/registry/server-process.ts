import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { BenchError } from "../errors.js";
import type { Cleanup } from "./cleanup.js";
import { sendOnce } from "./load/load.js";

/**
 * A registry under test runs as its own process, in its own process group, so the load generator
 * measures it over real sockets and stopping it also stops anything it started.
 */

export interface ServerSpec {
  label: string;
  command: string;
  args: string[];
  cwd: string;
  port: number;
  /** A GET that answers 2xx once the server takes requests. */
  readyPath: string;
  /** Which answers to readyPath mean ready, when not 2xx. */
  readyStatus?: (status: number) => boolean;
  /** Added to the bench's environment. */
  env?: Record<string, string>;
}

export interface RunningServer {
  label: string;
  port: number;
  pid: number;
  /** What the server printed so far (the last few KB), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

const startTimeoutMs = 60_000;
const stopGraceMs = 3_000;
const keptOutputChars = 8_000;

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Spawns the server and waits until it answers; it is in `cleanup` from the moment it exists. */
export async function startServer(spec: ServerSpec, cleanup: Cleanup): Promise<RunningServer> {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    detached: true,
    env: { ...process.env, ...spec.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-keptOutputChars);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.on("exit", (code, signal) => {
      exited = signal ? `stopped by ${signal}` : `exited with ${code}`;
      resolve();
    });
    child.on("error", (error) => {
      exited = `could not start: ${error.message}`;
      resolve();
    });
  });

  const stop = async () => {
    if (exited !== undefined || child.pid === undefined) return;
    signalGroup(child.pid, "SIGTERM");
    const stopped = await Promise.race([exit.then(() => true), sleep(stopGraceMs).then(() => false)]);
    if (!stopped) {
      signalGroup(child.pid, "SIGKILL");
      await exit;
    }
  };

  const server: RunningServer = {
    label: spec.label,
    port: spec.port,
    pid: child.pid ?? -1,
    output: () => output,
    stop,
  };
  if (child.pid !== undefined) cleanup.server(server);

  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (exited !== undefined) {
      throw new BenchError(
        "BENCH_ERR_SERVER",
        `${spec.label} ${exited} before it was ready; it printed:\n${output.trim()}`,
      );
    }
    const answer = await sendOnce(spec.port, { method: "GET", path: spec.readyPath }).catch(() => undefined);
    const ready = spec.readyStatus ?? ((status: number) => status >= 200 && status < 300);
    if (answer && ready(answer.status)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new BenchError(
        "BENCH_ERR_SERVER",
        `${spec.label} did not answer GET ${spec.readyPath} on port ${spec.port} within ${startTimeoutMs / 1000} s; it printed:\n${output.trim()}`,
      );
    }
    await sleep(100);
  }
  return server;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
