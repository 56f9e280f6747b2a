/**
 * Hook latency per event for a coding agent (issues 8 and 14): the same guard ("deny a Bash command
 * that runs rm -rf /") answered by `hookyard exec` (a process per event: the thin client of a warm
 * daemon, the first event that starts the daemon, and the old in-process route), by `hookyard serve`
 * (an HTTP call to a warm daemon), and by the command hooks users write today, in sh and in python,
 * beside bare `node -e 0` (the floor of any node process) and `hookyard --help`. Every answer is
 * checked; the other agents' profiles (Gemini CLI, Codex, Pi, OpenCode) get a warm-exec row each. Goals: serve p50 ≤ 2 ms including HTTP and ≥ 10× faster than python; warm exec p50 ≤
 * 1.3× bare node and below python; a first event ≤ 3× bare node; `hookyard --help` ≤ 1.5× bare node.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "undici";
import { daemonPaths } from "../adapters/daemon/paths.js";
import { daemonStatus, stopDaemon } from "../adapters/daemon/status.js";
import { execCommand } from "../cli/agent-settings/install-into.js";
import { agentEvents, checkAgentAnswer } from "./agent-compat/agent-events.js";
import { installCommunityGuard } from "./agent-compat/community-guard.js";
import {
  coldProcessContender,
  type EventContender,
  floorContender,
  processContender,
  type ServeConnection,
  serveContender,
  timedSamples,
} from "./agent-compat/contenders.js";
import { eventName, preToolUseEvents } from "./agent-compat/event.js";
import { shGuardCommand } from "./agent-compat/guards.js";
import type { HookProcess } from "./agent-compat/hook-process.js";
import { findPython } from "./agent-compat/python.js";
import {
  execGoalLines,
  footerLines,
  goalLine,
  latency,
  latencyTable,
  type Row,
  ratioLine,
} from "./agent-compat/report.js";
import { type ServeDaemon, startServe } from "./agent-compat/serve-process.js";
import { writeTrustedWorkspace } from "./agent-compat/workspace.js";
import { childEnv } from "./install/child-env.js";
import { runRounds } from "./install/rounds.js";
import { withCleanup } from "./registry/cleanup.js";

const warmupRounds = 2;
const timedRounds = 20;
/** Calls per round: a process costs 10 to 1,000 ms, a request to serve about one. */
const perRound = {
  exec: 6,
  agent: 4,
  execCold: 2,
  execInProcess: 2,
  serve: 150,
  sh: 6,
  python: 6,
  node: 6,
  help: 3,
};

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
      runtime: join(root, "runtime"),
    };
    for (const dir of Object.values(dirs)) await mkdir(dir);
    // The exec daemons' sockets and logs in the bench's own runtime dir; they stay up between calls.
    const env = { ...childEnv(dirs.home), XDG_RUNTIME_DIR: dirs.runtime, HOOKYARD_EXEC_ROUTE: "auto" };
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
    // Exactly the command install-into writes, run through sh as that agent runs it.
    const installed = `${execCommand()} exec --profile claude ${eventName}`;
    const exec = (cwd: string, extra: NodeJS.ProcessEnv = {}, command = installed): HookProcess => ({
      command: "sh",
      args: ["-c", command],
      cwd,
      env: { ...env, ...extra },
    });
    // The other agents' hooks on the same warm daemon, each read as that agent reads its answer.
    const otherAgents = agentEvents.map((agent) =>
      processContender({
        name: `hookyard exec --profile ${agent.profile}, warm daemon (${agent.agent} ${agent.event})`,
        short: `exec ${agent.profile}`,
        perRound: perRound.agent,
        events: agent.events(dirs.trusted),
        hook: exec(dirs.trusted, {}, `${execCommand()} exec --profile ${agent.profile} ${agent.event}`),
        check: checkAgentAnswer,
      }),
    );
    const stopDaemonOf = async (workspace: string) => {
      await stopDaemon(workspace, { env });
      const { socket } = daemonPaths(workspace, env);
      for (let i = 0; i < 500 && existsSync(socket); i++) await new Promise((done) => setTimeout(done, 10));
    };
    // Before a first event: the daemon the previous call started is let come up, then stopped, so
    // no daemon is running or still loading while the call is timed.
    const noDaemonOf = async (workspace: string) => {
      for (let i = 0; i < 1000 && !(await daemonStatus(workspace, { env, timeoutMs: 500 })).running; i++) {
        await new Promise((done) => setTimeout(done, 10));
      }
      await stopDaemonOf(workspace);
    };
    cleanup.dir(dirs.runtime);
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
    const floor = floorContender({
      name: "bare node -e 0 (floor)",
      short: "node",
      perRound: perRound.node,
      hook: sh(`${shQuote(process.execPath)} -e 0`),
    });
    const warmExec = processContender({
      name: "hookyard exec, warm daemon, trusted hook",
      short: "exec",
      perRound: perRound.exec,
      events: events.trusted,
      hook: exec(dirs.trusted),
    });
    const coldExec = coldProcessContender({
      name: "hookyard exec, first event (starts the daemon)",
      short: "exec first",
      perRound: perRound.execCold,
      events: events.trusted,
      hook: exec(dirs.trusted),
      before: () => noDaemonOf(dirs.trusted),
    });
    const help = floorContender({
      name: "hookyard --help",
      short: "help",
      perRound: perRound.help,
      hook: sh(`${execCommand()} --help`),
    });
    const contenders: EventContender[] = [
      warmExec,
      processContender({
        name: "hookyard exec, warm daemon, sandboxed hook",
        short: "exec sandboxed",
        perRound: perRound.exec,
        events: events.sandboxed,
        hook: exec(dirs.sandboxed),
      }),
      coldExec,
      processContender({
        name: "hookyard exec, in-process (no daemon, as before)",
        short: "exec in-process",
        perRound: perRound.execInProcess,
        events: events.trusted,
        hook: exec(dirs.trusted, { HOOKYARD_EXEC_ROUTE: "inprocess" }),
      }),
      ...otherAgents,
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
      floor,
      help,
    ];

    try {
      await runRounds(contenders, { warmup: warmupRounds, rounds: timedRounds }, log, cleanup.signal);
    } finally {
      await Promise.all(Object.values(connections).map((connection) => connection.client.close()));
      await Promise.all([stopDaemonOf(dirs.trusted), stopDaemonOf(dirs.sandboxed)]);
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
    for (const line of execGoalLines({
      warm: latencyOf(warmExec),
      first: latencyOf(coldExec),
      help: latencyOf(help),
      floor: latencyOf(floor),
      python: pythonLatency,
    }))
      console.log(line);
    const footer = footerLines({
      rounds: `${timedRounds} rounds after ${warmupRounds} warm-up rounds; calls per round: exec ${perRound.exec} (other agents' profiles ${perRound.agent}, first event ${perRound.execCold}, in-process ${perRound.execInProcess}), serve ${perRound.serve}, sh ${perRound.sh}, python ${perRound.python}, node ${perRound.node}, --help ${perRound.help}`,
      python: python ? `${python.executable} ${python.version}` : "no python3 on PATH",
      loadBefore,
      loadAfter: loadLine(),
    });
    for (const line of footer) console.log(line);
    console.log(`whole bench ${seconds(started)}`);
  });
}
