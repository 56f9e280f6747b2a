import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BenchError } from "../errors.js";
import { hookyardBin } from "../install/hookyard-registry.js";
import type { Cleanup } from "../registry/cleanup.js";
import type { RunningServer } from "../registry/server-process.js";

/**
 * `hookyard serve --port 0` on a workspace, as a user starts it, in its own process group (so
 * stopping it also stops its sandbox process). bench/registry's startServer cannot start it: it
 * needs the port up front and a GET that answers 2xx, and serve answers every request without the
 * token 401. Ready is serve's own line, `listening on http://…`; the token is the file it wrote.
 */

export interface ServeDaemon {
  server: RunningServer;
  /** http://127.0.0.1:<port> */
  origin: string;
  token: string;
}

const startTimeoutMs = 30_000;
const stopGraceMs = 3_000;
const keptOutputChars = 8_000;
const listeningLine = /^listening on (http:\/\/\S+)$/m;
const tokenFile = join(".hookyard", "serve.token");

export async function startServe(
  label: string,
  workspace: string,
  env: NodeJS.ProcessEnv,
  cleanup: Cleanup,
): Promise<ServeDaemon> {
  const child = spawn(process.execPath, ["--no-node-snapshot", hookyardBin, "serve", "--port", "0"], {
    cwd: workspace,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-keptOutputChars);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
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
  const pid = child.pid ?? -1;
  const stop = async () => {
    if (exited !== undefined || pid < 0) return;
    signalGroup(pid, "SIGTERM");
    if (!(await Promise.race([exit.then(() => true), sleep(stopGraceMs).then(() => false)]))) {
      signalGroup(pid, "SIGKILL");
      await exit;
    }
  };
  const server: RunningServer = { label, port: 0, pid, output: () => output, stop };
  if (pid > 0) cleanup.server(server);

  const fail = async (why: string) => {
    await stop();
    return new BenchError("AGENT_BENCH_ERR_SERVE", `${label} ${why}; it printed:\n${output.trim()}`);
  };
  const deadline = Date.now() + startTimeoutMs;
  let origin: string | undefined;
  while (origin === undefined) {
    if (exited !== undefined) throw await fail(`${exited} before it listened`);
    if (Date.now() > deadline)
      throw await fail(`printed no "listening on" line within ${startTimeoutMs / 1000} s`);
    origin = listeningLine.exec(output)?.[1];
    if (origin === undefined) await sleep(20);
  }
  server.port = Number(new URL(origin).port);
  // serve writes the token file before it listens.
  const token = (await readFile(join(workspace, tokenFile), "utf8").catch(() => "")).trim();
  if (token === "") throw await fail(`listens on ${origin} but left no token in ${tokenFile}`);
  return { server, origin, token };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
