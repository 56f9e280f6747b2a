import { type ChildProcess, fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { sandboxErrorCodes } from "../errors.js";
import type { Backend, BackendOptions, HookAnswer, HookSpec, RunRequest } from "../runtime/types.js";
import type { FromHost, ToHost } from "./protocol.js";

/** Beyond a hook's wallMs, how long the supervisor waits for its answer before it kills the process. */
const graceMs = 1_000;
/** A fresh process must boot Node and load isolated-vm before its first answer. */
const startupMs = 5_000;
/** How long close() lets the process flush its audit log before killing it. */
const closeMs = 2_000;
const stderrTailBytes = 2_048;
/** After the process exits, how long its last messages may take to be read from the channel. */
const channelDrainMs = 200;

interface HostProcess {
  readonly child: ChildProcess;
  /** Hook ids whose spec this process already has. */
  readonly known: Set<string>;
  ready: boolean;
  ended: boolean;
  stderr: string;
  /** Batches sent and not yet answered: while there are any, the process keeps the agent's alive. */
  inFlight: number;
}

interface PendingRun {
  readonly host: HostProcess;
  readonly hooks: readonly HookSpec[];
  readonly answers: HookAnswer[];
  readonly done: (answers: HookAnswer[]) => void;
  /** When the hook now running started, as far as the supervisor can tell (the previous answer). */
  hookStartedAt: number;
  timer: NodeJS.Timeout | undefined;
  timedOut: boolean;
}

/**
 * Forks the sandbox process on the first call, sends it batches, and restarts it after it dies.
 * Each answer re-arms a wall timer for the next hook (its wallMs plus grace); a process that stays
 * silent past it is killed. When the process dies, the hook that was running in each batch answers
 * SANDBOX_ERR_CRASHED (SANDBOX_ERR_TIMEOUT for the one that was overdue); the next call forks anew.
 */
export class SandboxSupervisor implements Backend {
  private host: HostProcess | undefined;
  private readonly pending = new Map<number, PendingRun>();
  private nextRequest = 0;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: BackendOptions & { entry: string }) {}

  get pid(): number | undefined {
    return this.host && !this.host.ended ? this.host.child.pid : undefined;
  }

  run(request: RunRequest, hooks: readonly HookSpec[]): Promise<HookAnswer[]> {
    if (this.closing) return Promise.resolve([closedAnswer(hooks[0] as HookSpec)]);
    const host = this.ensureHost();
    const r = ++this.nextRequest;
    return new Promise((done) => {
      const run: PendingRun = {
        host,
        hooks,
        answers: [],
        done,
        hookStartedAt: performance.now(),
        timer: undefined,
        timedOut: false,
      };
      this.pending.set(r, run);
      if (++host.inFlight === 1) this.ref(host, true);
      this.arm(r, run, host.ready ? 0 : startupMs);
      const specs = hooks.map((spec) => {
        if (host.known.has(spec.id)) return spec.id;
        host.known.add(spec.id);
        return spec;
      });
      this.send(host, {
        t: "run",
        r,
        point: request.point,
        ctx: request.ctxJson,
        outcome: request.outcome,
        hooks: specs,
      });
    });
  }

  drop(id: string): void {
    if (this.host && !this.host.ended) this.send(this.host, { t: "drop", id });
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    for (const [r, run] of this.pending)
      this.finish(r, run, closedAnswer(run.hooks[run.answers.length] as HookSpec));
    const host = this.host;
    if (!host || host.ended) return;
    const { child } = host;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.send(host, { t: "close" });
    const timer = setTimeout(() => child.kill("SIGKILL"), closeMs);
    await exited;
    clearTimeout(timer);
  }

  private ensureHost(): HostProcess {
    if (this.host && !this.host.ended) return this.host;
    const env = { ...process.env };
    // The sandbox process takes no options from the agent's environment: no --inspect, no --require.
    delete env.NODE_OPTIONS;
    const child = fork(this.options.entry, [], {
      execArgv: ["--no-node-snapshot"],
      env,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    const host: HostProcess = {
      child,
      known: new Set(),
      ready: false,
      ended: false,
      stderr: "",
      inFlight: 0,
    };
    this.host = host;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      host.stderr = (host.stderr + chunk).slice(-stderrTailBytes);
    });
    child.on("message", (message: FromHost) => this.receive(host, message));
    child.on("exit", (code, signal) => {
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      // Answers sent just before the end may still be in the channel: read them first.
      if (!child.connected) return this.ended(host, how);
      const late = setTimeout(() => this.ended(host, how), channelDrainMs);
      child.once("disconnect", () => {
        clearTimeout(late);
        this.ended(host, how);
      });
    });
    child.on("error", (error) => {
      // A failed spawn or send; make sure the process is gone, then treat it as dead.
      child.kill("SIGKILL");
      this.ended(host, error.message);
    });
    this.send(host, {
      t: "init",
      root: this.options.root,
      auditFile: this.options.auditFile,
      hosts: this.options.hosts,
    });
    this.ref(host, false);
    return host;
  }

  private receive(host: HostProcess, message: FromHost): void {
    switch (message.t) {
      case "ready":
        host.ready = true;
        return;
      case "answer": {
        const run = this.pending.get(message.r);
        if (!run || run.host !== host) return;
        const expected = run.hooks[run.answers.length];
        if (!expected || !isAnswerFor(message.answer, expected.id)) {
          // Only a broken (or subverted) sandbox process says something else: do not trust it further.
          this.kill(host);
          return;
        }
        for (const line of message.logs ?? []) this.options.host.log(expected.id, String(line));
        run.answers.push(message.answer);
        if (message.last || run.answers.length === run.hooks.length) {
          this.finish(message.r, run);
          return;
        }
        run.hookStartedAt = performance.now();
        this.arm(message.r, run, 0);
        return;
      }
      case "state":
        void this.answerState(host, message);
        return;
    }
  }

  private async answerState(host: HostProcess, message: Extract<FromHost, { t: "state" }>): Promise<void> {
    let reply: ToHost;
    if (!host.known.has(message.hook)) {
      // Only hooks this process was given have state; anything else is a broken process talking.
      this.send(host, { t: "state", q: message.q, ok: false, code: null });
      return;
    }
    try {
      const value =
        message.op === "get"
          ? await this.options.host.stateGet(message.hook, message.key)
          : await this.options.host.stateSet(message.hook, message.key, message.value);
      reply = { t: "state", q: message.q, ok: true, value };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      reply = { t: "state", q: message.q, ok: false, code: typeof code === "string" ? code : null };
    }
    if (!host.ended) this.send(host, reply);
  }

  private arm(r: number, run: PendingRun, extraMs: number): void {
    clearTimeout(run.timer);
    const hook = run.hooks[run.answers.length] as HookSpec;
    run.timer = setTimeout(
      () => {
        if (this.pending.get(r) !== run) return;
        run.timedOut = true;
        this.kill(run.host);
      },
      hook.limits.wallMs + graceMs + extraMs,
    );
  }

  private kill(host: HostProcess): void {
    host.child.kill("SIGKILL");
    // Calls made from now on go to a fresh process; this one's batches fail when its exit arrives.
    if (this.host === host) this.host = undefined;
  }

  private ended(host: HostProcess, how: string): void {
    if (host.ended) return;
    host.ended = true;
    if (this.host === host) this.host = undefined;
    const tail = host.stderr.trim().split("\n").at(-1);
    for (const [r, run] of this.pending) {
      if (run.host !== host) continue;
      const hook = run.hooks[run.answers.length] as HookSpec;
      const ms = performance.now() - run.hookStartedAt;
      this.finish(
        r,
        run,
        run.timedOut
          ? {
              hook: hook.id,
              status: "error",
              code: "SANDBOX_ERR_TIMEOUT",
              message: `did not answer within wallMs (${hook.limits.wallMs} ms) and ${graceMs} ms of grace; the sandbox process was killed and restarts on the next call`,
              ms,
            }
          : {
              hook: hook.id,
              status: "error",
              code: "SANDBOX_ERR_CRASHED",
              message: `the sandbox process died (${how}) while this hook was running${tail ? `: ${tail}` : ""}; it restarts on the next call`,
              ms,
            },
      );
    }
  }

  private finish(r: number, run: PendingRun, last?: HookAnswer): void {
    clearTimeout(run.timer);
    this.pending.delete(r);
    if (last) run.answers.push(last);
    if (--run.host.inFlight === 0) this.ref(run.host, false);
    run.done(run.answers);
  }

  /** An idle sandbox process must not keep the agent's process alive. */
  private ref(host: HostProcess, on: boolean): void {
    if (host.ended) return;
    if (on) {
      host.child.ref();
      host.child.channel?.ref();
    } else {
      host.child.unref();
      host.child.channel?.unref();
    }
  }

  private send(host: HostProcess, message: ToHost): void {
    // A send to a process that just died fails; its exit event fails the batches.
    host.child.send(message, (error) => {
      if (!error) return;
      host.child.kill("SIGKILL");
      this.ended(host, `the IPC channel failed: ${error.message}`);
    });
  }
}

function closedAnswer(hook: HookSpec): HookAnswer {
  return {
    hook: hook.id,
    status: "error",
    code: "SANDBOX_ERR_CLOSED",
    message: "the sandbox was closed",
    ms: 0,
  };
}

const knownCodes: ReadonlySet<string> = new Set(sandboxErrorCodes);

function isAnswerFor(answer: HookAnswer, id: string): boolean {
  if (typeof answer !== "object" || answer === null || answer.hook !== id || typeof answer.ms !== "number") {
    return false;
  }
  if (answer.status === "ok") return true;
  return answer.status === "error" && knownCodes.has(answer.code) && typeof answer.message === "string";
}
