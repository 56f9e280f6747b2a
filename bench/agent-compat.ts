/**
 * Hook latency per event for a coding agent (issue 8): the same guard ("deny a Bash command that
 * runs rm -rf /") answered by `hookyard exec` (a process per event), by `hookyard serve` (an HTTP
 * call to a warm daemon), and by the command hooks users write today, in sh and in python. Every
 * answer is checked. Goal: serve p50 ≤ 2 ms including HTTP, and ≥ 10× faster than python.
 */
import { mkdir, mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "undici";
import { installCommunityGuard } from "./agent-compat/community-guard.js";
import {
  type EventContender,
  processContender,
  type ServeConnection,
  serveContender,
  timedSamples,
} from "./agent-compat/contenders.js";
import { eventName, preToolUseEvents } from "./agent-compat/event.js";
import { shGuardCommand } from "./agent-compat/guards.js";
import type { HookProcess } from "./agent-compat/hook-process.js";
import { findPython } from "./agent-compat/python.js";
import { footerLines, goalLine, latency, latencyTable, type Row, ratioLine } from "./agent-compat/report.js";
import { type ServeDaemon, startServe } from "./agent-compat/serve-process.js";
import { writeTrustedWorkspace } from "./agent-compat/workspace.js";
import { childEnv } from "./install/child-env.js";
import { hookyardBin } from "./install/hookyard-registry.js";
import { runRounds } from "./install/rounds.js";
import { withCleanup } from "./registry/cleanup.js";

const warmupRounds = 2;
const timedRounds = 30;
/** Calls per round: a process costs 10 to 500 ms, a request to serve about one. */
const perRound = { exec: 2, serve: 150, sh: 10, python: 10 };

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

function loadLine(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
}

function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export async function run(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadLine();
  // Progress goes to stderr, so stdout holds only the report.
  const log = (line: string) => console.error(`[${seconds(started).padStart(7)}] ${line}`);
  await withCleanup(async (cleanup) => {
    const root = await mkdtemp(join(tmpdir(), "hookyard-bench-agent-compat-"));
    cleanup.dir(root);
    const dirs = {
      trusted: join(root, "trusted"),
      sandboxed: join(root, "sandboxed"),
      home: join(root, "home"),
      scratch: join(root, "scratch"),
    };
    for (const dir of Object.values(dirs)) await mkdir(dir);
    const env = childEnv(dirs.home);
    const { pythonScript } = await writeTrustedWorkspace(dirs.trusted);
    const python = await findPython();
    log(
      python ? `python3 is ${python.executable} ${python.version}` : "no python3 on PATH: its row is skipped",
    );
    log("installing the guard as a sandboxed community hook (pack, publish to a local registry, install)");
    await installCommunityGuard({ workspace: dirs.sandboxed, scratch: dirs.scratch, env, cleanup });
    const [trustedServe, sandboxedServe] = await Promise.all([
      startServe("hookyard serve (trusted)", dirs.trusted, env, cleanup),
      startServe("hookyard serve (sandboxed)", dirs.sandboxed, env, cleanup),
    ]);
    log(`serving on ${trustedServe.origin} (trusted) and ${sandboxedServe.origin} (sandboxed)`);
    const connect = (daemon: ServeDaemon): ServeConnection => ({
      client: new Client(daemon.origin, { pipelining: 1 }),
      token: daemon.token,
    });
    const connections = { trusted: connect(trustedServe), sandboxed: connect(sandboxedServe) };

    const events = {
      trusted: preToolUseEvents(dirs.trusted, dirs.home),
      sandboxed: preToolUseEvents(dirs.sandboxed, dirs.home),
    };
    const exec = (cwd: string): HookProcess => ({
      command: process.execPath,
      args: ["--no-node-snapshot", hookyardBin, "exec", "--profile", "claude", eventName],
      cwd,
      env,
    });
    // How that agent runs a command hook.
    const sh = (command: string): HookProcess => ({
      command: "sh",
      args: ["-c", command],
      cwd: dirs.trusted,
      env,
    });
    const serve = serveContender({
      name: "hookyard serve, trusted hook",
      short: "serve",
      perRound: perRound.serve,
      events: events.trusted,
      connection: connections.trusted,
    });
    const pythonRow = python
      ? processContender({
          name: "python command hook",
          short: "python",
          perRound: perRound.python,
          events: events.trusted,
          hook: sh(`${shQuote(python.executable)} ${shQuote(pythonScript)}`),
        })
      : undefined;
    const contenders: EventContender[] = [
      processContender({
        name: "hookyard exec, trusted hook",
        short: "exec",
        perRound: perRound.exec,
        events: events.trusted,
        hook: exec(dirs.trusted),
      }),
      processContender({
        name: "hookyard exec, sandboxed hook",
        short: "exec sandboxed",
        perRound: perRound.exec,
        events: events.sandboxed,
        hook: exec(dirs.sandboxed),
      }),
      serve,
      serveContender({
        name: "hookyard serve, sandboxed hook",
        short: "serve sandboxed",
        perRound: perRound.serve,
        events: events.sandboxed,
        connection: connections.sandboxed,
      }),
      processContender({
        name: "sh command hook",
        short: "sh",
        perRound: perRound.sh,
        events: events.trusted,
        hook: sh(shGuardCommand),
      }),
      ...(pythonRow ? [pythonRow] : []),
    ];

    try {
      await runRounds(contenders, { warmup: warmupRounds, rounds: timedRounds }, log, cleanup.signal);
    } finally {
      await Promise.all(Object.values(connections).map((connection) => connection.client.close()));
    }

    const latencyOf = (contender: EventContender) => latency(timedSamples(contender, warmupRounds));
    const rows: Row[] = contenders.map((contender) => ({
      name: contender.name,
      latency: latencyOf(contender),
    }));
    if (!pythonRow) rows.push({ name: "python command hook", missing: "no python3 on PATH" });
    const serveLatency = latencyOf(serve);
    const pythonLatency = pythonRow && latencyOf(pythonRow);

    console.log(
      `agent-compat: one PreToolUse per call, the same guard as a hookyard hook and as sh and python command hooks`,
    );
    console.log("");
    console.log(latencyTable(rows));
    console.log("");
    console.log(ratioLine(serveLatency, pythonLatency));
    console.log(goalLine(serveLatency, pythonLatency));
    const footer = footerLines({
      rounds: `${timedRounds} rounds after ${warmupRounds} warm-up rounds; calls per round: exec ${perRound.exec}, serve ${perRound.serve}, sh ${perRound.sh}, python ${perRound.python}`,
      python: python ? `${python.executable} ${python.version}` : "no python3 on PATH",
      loadBefore,
      loadAfter: loadLine(),
    });
    for (const line of footer) console.log(line);
    console.log(`whole bench ${seconds(started)}`);
  });
}
