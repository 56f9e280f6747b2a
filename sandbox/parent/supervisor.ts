import { type ChildProcess, fork } from "node:child_process";
import { closeSync } from "node:fs";
import type { Socket } from "node:net";
import { sandboxErrorCodes } from "../errors.js";
import { createProgressFile, readProgress } from "../wire/progress-file.js";
import type { FromSandbox, HookResult, ToSandbox } from "../wire/protocol.js";
import type { HookAnswer, HookSpec, RunRequest } from "../wire/types.js";
import { sandboxStartupMs } from "./limits.js";
import type { Backend, BackendOptions } from "./types.js";

/** Beyond a hook's wallMs, how long the supervisor waits for its answer before it kills the process. */
const graceMs = 1_000;
/** How long close() lets the process flush its audit log before killing it. */
const closeMs = 2_000;
const stderrTailBytes = 2_048;
/** After the process exits, how long its last messages may take to be read from the channel. */
const channelDrainMs = 200;
/** Where the progress file goes in the sandbox process; the IPC channel comes after it. */
const progressFdInChild = 3;
/**
 * --no-node-snapshot: isolated-vm asks for it (it crashed on Node 20 without it). --no-concurrent-recompilation:
 * an isolate entered only for short synchronous calls, idle in between, seldom receives the
 * optimised code V8 compiles for it on a helper thread (measured with --trace-opt: one of six
 * compiles of the bootstrap's entry point was installed, the rest were compiled again and again),
 * so the bootstrap and hook code ran in the baseline tier. Compiled on the isolate's own thread,
 * the optimised code is there for the next call.
 */
const sandboxNodeFlags = ["--no-node-snapshot", "--no-concurrent-recompilation"];

interface SandboxProcess {
  readonly child: ChildProcess;
  /** Hook ids whose spec this process already has. */
  readonly known: Set<string>;
  /** The supervisor's descriptor of this process's progress file, if it has one. */
  readonly progressFd: number | undefined;
  /** Progress-file slots held by this process's batches in flight. */
  readonly slots: Set<number>;
  /** Date.now() at the fork: the start-up limit counts from here. */
  readonly forkedAt: number;
  ready: boolean;
  /** Killed for not getting ready within sandboxStartupMs. */
  startupTimedOut: boolean;
  ended: boolean;
  stderr: string;
  /** Batches sent and not yet answered: while there are any, the process keeps the agent's alive. */
  inFlight: number;
}

interface PendingRun {
  readonly r: number;
  readonly proc: SandboxProcess;
  readonly slot: number;
  readonly hooks: readonly HookSpec[];
  readonly answers: HookAnswer[];
  readonly done: (answers: HookAnswer[]) => void;
  /**
   * Date.now() when the first hook without a known answer started, as far as messages tell: for
   * the first hook, when the request was sent or, if the process was still booting, when it said
   * it was ready (it runs the requests that waited for it at once, in order).
   */
  startedAt: number;
  timer: NodeJS.Timeout | undefined;
  /** The index of the hook that was overdue when the process was killed for it. */
  overdue: number | undefined;
}

/**
 * Forks the sandbox process on the first call (or on start()), sends it batches, and restarts it
 * after it dies. A batch's answers come back in one message; how far a batch got in between is in
 * the progress file, read only when a hook's wall timer fires (wallMs plus grace, from when it
 * started) and when the process dies. A process that stays silent past a hook's timer is killed;
 * when a process dies, the hook that was running in each of its batches answers SANDBOX_ERR_CRASHED
 * (SANDBOX_ERR_TIMEOUT for the one that was overdue), and the hooks before it keep their answers.
 */
export class SandboxSupervisor implements Backend {
  private proc: SandboxProcess | undefined;
  private readonly pending = new Map<number, PendingRun>();
  private nextRequest = 0;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: BackendOptions & { entry: string }) {}

  get pid(): number | undefined {
    return this.proc && !this.proc.ended ? this.proc.child.pid : undefined;
  }

  start(): void {
    if (this.closing) return;
    try {
      this.ensureProcess();
    } catch {
      // The first call forks again and reports what goes wrong.
    }
  }

  run(request: RunRequest, hooks: readonly HookSpec[]): Promise<HookAnswer[]> {
    if (this.closing) return Promise.resolve([closedAnswer(hooks[0] as HookSpec)]);
    const proc = this.ensureProcess();
    const r = ++this.nextRequest;
    let slot = 0;
    while (proc.slots.has(slot)) slot++;
    proc.slots.add(slot);
    return new Promise((done) => {
      const run: PendingRun = {
        r,
        proc,
        slot,
        hooks,
        answers: [],
        done,
        startedAt: Date.now(),
        timer: undefined,
        overdue: undefined,
      };
      this.pending.set(r, run);
      const specs = hooks.map((spec) => {
        if (proc.known.has(spec.id)) return spec.id;
        proc.known.add(spec.id);
        return spec;
      });
      this.send(proc, {
        t: "run",
        r,
        slot,
        point: request.point,
        ctx: request.ctxJson,
        outcome: request.outcome,
        hooks: specs,
      });
      // After the send, so the sandbox process starts on the batch sooner; its answer can only
      // arrive once this returns to the event loop.
      if (++proc.inFlight === 1) this.ref(proc, true);
      this.arm(run, 0, run.startedAt);
    });
  }

  drop(id: string): void {
    if (this.proc && !this.proc.ended) this.send(this.proc, { t: "drop", id });
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    for (const run of this.pending.values())
      this.finish(run, closedAnswer(run.hooks[run.answers.length] as HookSpec));
    const proc = this.proc;
    if (!proc || proc.ended) return;
    const { child } = proc;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    this.send(proc, { t: "close" });
    const timer = setTimeout(() => child.kill("SIGKILL"), closeMs);
    await exited;
    clearTimeout(timer);
  }

  private ensureProcess(): SandboxProcess {
    if (this.proc && !this.proc.ended) return this.proc;
    const env = { ...process.env };
    // The sandbox process takes no options from the agent's environment: no --inspect, no --require.
    delete env.NODE_OPTIONS;
    const progressFd = createProgressFile();
    let child: ChildProcess;
    try {
      child = fork(this.options.entry, [], {
        execArgv: sandboxNodeFlags,
        env,
        stdio: ["ignore", "ignore", "pipe", progressFd ?? "ignore", "ipc"],
        serialization: "json",
      });
    } catch (error) {
      if (progressFd !== undefined) closeSync(progressFd);
      throw error;
    }
    const proc: SandboxProcess = {
      child,
      known: new Set(),
      progressFd,
      slots: new Set(),
      forkedAt: Date.now(),
      ready: false,
      startupTimedOut: false,
      ended: false,
      stderr: "",
      inFlight: 0,
    };
    this.proc = proc;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      proc.stderr = (proc.stderr + chunk).slice(-stderrTailBytes);
    });
    // Read while the process lives, but never a reason for the agent's process to stay.
    (child.stderr as Socket | null)?.unref();
    child.on("message", (message: FromSandbox) => this.receive(proc, message));
    child.on("exit", (code, signal) => {
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      // Answers sent just before the end may still be in the channel: read them first.
      if (!child.connected) return this.ended(proc, how);
      const late = setTimeout(() => this.ended(proc, how), channelDrainMs);
      child.once("disconnect", () => {
        clearTimeout(late);
        this.ended(proc, how);
      });
    });
    child.on("error", (error) => {
      // A failed spawn or send; make sure the process is gone, then treat it as dead.
      child.kill("SIGKILL");
      this.ended(proc, error.message);
    });
    this.send(proc, {
      t: "init",
      root: this.options.root,
      auditFile: this.options.auditFile,
      hosts: this.options.hosts,
      progressFd: progressFd === undefined ? undefined : progressFdInChild,
    });
    this.ref(proc, false);
    return proc;
  }

  private receive(proc: SandboxProcess, message: FromSandbox): void {
    switch (message.t) {
      case "ready": {
        proc.ready = true;
        // The batches that waited for the boot start now: their first hook's timer starts here.
        const now = Date.now();
        for (const run of this.pending.values()) {
          if (run.proc !== proc || run.answers.length > 0) continue;
          run.startedAt = now;
          this.arm(run, 0, now);
        }
        return;
      }
      case "answers": {
        const run = this.pending.get(message.r);
        if (!run || run.proc !== proc) return;
        if (!Array.isArray(message.results) || !this.accept(run, message.results)) {
          // Only a broken (or subverted) sandbox process says something else: do not trust it further.
          this.kill(proc);
          return;
        }
        if (message.last || run.answers.length === run.hooks.length) {
          this.finish(run);
          return;
        }
        run.startedAt = Date.now();
        this.arm(run, run.answers.length, run.startedAt);
        return;
      }
      case "state":
        void this.answerState(proc, message);
        return;
    }
  }

  /** Takes answers in order, each as the answer of the hook expected next; false at the first that is not one. */
  private accept(run: PendingRun, results: readonly HookResult[]): boolean {
    for (const result of results) {
      const expected = run.hooks[run.answers.length];
      const answer = answerOf((result as Partial<HookResult> | null)?.answer, expected?.id);
      if (!expected || !answer) return false;
      const logs = result.logs;
      if (Array.isArray(logs)) for (const line of logs) this.options.services.log(expected.id, String(line));
      run.answers.push(answer);
    }
    return true;
  }

  private async answerState(
    proc: SandboxProcess,
    message: Extract<FromSandbox, { t: "state" }>,
  ): Promise<void> {
    let reply: ToSandbox;
    if (!proc.known.has(message.hook)) {
      // Only hooks this process was given have state; anything else is a broken process talking.
      this.send(proc, { t: "state", q: message.q, ok: false, code: null });
      return;
    }
    try {
      const value =
        message.op === "get"
          ? await this.options.services.stateGet(message.hook, message.key)
          : await this.options.services.stateSet(message.hook, message.key, message.value);
      reply = { t: "state", q: message.q, ok: true, value };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      reply = { t: "state", q: message.q, ok: false, code: typeof code === "string" ? code : null };
    }
    if (!proc.ended) this.send(proc, reply);
  }

  /**
   * How far a batch got: the answers the progress file holds beyond those received (each for the
   * hook expected next), and when the hook now running started.
   */
  private progress(run: PendingRun): { results: HookResult[]; startedAt: number } {
    const { progressFd } = run.proc;
    const records =
      progressFd === undefined ? [] : readProgress(progressFd, run.slot, run.r, run.answers.length);
    const valid = records.findIndex(
      (record, i) => !answerOf(record.result.answer, run.hooks[run.answers.length + i]?.id),
    );
    const kept = valid === -1 ? records : records.slice(0, valid);
    return { results: kept.map((record) => record.result), startedAt: kept.at(-1)?.at ?? run.startedAt };
  }

  /** When the hook at `index`, started at `startedAt`, is overdue; while the process boots, when its start-up is. */
  private deadline(run: PendingRun, index: number, startedAt: number): number {
    if (!run.proc.ready) return run.proc.forkedAt + sandboxStartupMs;
    const hook = run.hooks[index] as HookSpec;
    return startedAt + hook.limits.wallMs + graceMs;
  }

  /**
   * Sets the timer for the batch whose hook `index` runs since `startedAt`: at that hook's
   * deadline, or sooner if a later hook, starting now, could be overdue first (a shorter wallMs,
   * or a hook that waited for the process to boot), since the timer learns that a later hook
   * started only when it fires. While the process boots, no hook runs: the timer is its start-up's.
   */
  private arm(run: PendingRun, index: number, startedAt: number): void {
    const now = Date.now();
    let at = this.deadline(run, index, startedAt);
    if (run.proc.ready) {
      for (const later of run.hooks.slice(index + 1)) at = Math.min(at, now + later.limits.wallMs + graceMs);
    }
    clearTimeout(run.timer);
    run.timer = setTimeout(() => this.check(run), Math.max(0, at - now));
  }

  /** The timer fired: the progress file says which hook runs now; it is killed if overdue. */
  private check(run: PendingRun): void {
    if (this.pending.get(run.r) !== run) return;
    const { results, startedAt } = this.progress(run);
    const index = run.answers.length + results.length;
    if (Date.now() < this.deadline(run, index, startedAt)) {
      this.arm(run, index, startedAt);
      return;
    }
    if (run.proc.ready) run.overdue = index;
    else run.proc.startupTimedOut = true;
    this.kill(run.proc);
  }

  private kill(proc: SandboxProcess): void {
    proc.child.kill("SIGKILL");
    // Calls made from now on go to a fresh process; this one's batches fail when its exit arrives.
    if (this.proc === proc) this.proc = undefined;
  }

  private ended(proc: SandboxProcess, how: string): void {
    if (proc.ended) return;
    proc.ended = true;
    if (this.proc === proc) this.proc = undefined;
    const tail = proc.stderr.trim().split("\n").at(-1);
    for (const run of this.pending.values()) {
      if (run.proc !== proc) continue;
      const { results, startedAt } = this.progress(run);
      this.accept(run, results);
      const hook = run.hooks[run.answers.length];
      if (!hook) {
        this.finish(run);
        continue;
      }
      const ms = Date.now() - startedAt;
      if (!proc.ready) {
        // No hook of this batch ran: the process never got as far as running one.
        this.finish(run, {
          hook: hook.id,
          status: "error",
          code: "SANDBOX_ERR_STARTUP",
          message: proc.startupTimedOut
            ? `the sandbox process did not start within ${sandboxStartupMs / 1_000} s (is the machine overloaded?); the hook did not run, and the process restarts on the next call`
            : `the sandbox process died while starting (${how})${tail ? `: ${tail}` : ""}; the hook did not run, and the process restarts on the next call`,
          ms,
        });
        continue;
      }
      this.finish(
        run,
        run.overdue === run.answers.length
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
    if (proc.progressFd !== undefined) closeSync(proc.progressFd);
  }

  private finish(run: PendingRun, last?: HookAnswer): void {
    clearTimeout(run.timer);
    this.pending.delete(run.r);
    run.proc.slots.delete(run.slot);
    if (last) run.answers.push(last);
    if (--run.proc.inFlight === 0) this.ref(run.proc, false);
    run.done(run.answers);
  }

  /** An idle sandbox process must not keep the agent's process alive. */
  private ref(proc: SandboxProcess, on: boolean): void {
    if (proc.ended) return;
    if (on) {
      proc.child.ref();
      proc.child.channel?.ref();
    } else {
      proc.child.unref();
      proc.child.channel?.unref();
    }
  }

  private send(proc: SandboxProcess, message: ToSandbox): void {
    // A send to a process that just died fails, and a process whose channel failed is killed: its
    // exit event, which says why it ended, fails the batches.
    proc.child.send(message, (error) => {
      if (error) this.kill(proc);
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

/** What the sandbox process sent as an answer, as the answer of hook `id`; undefined if it is not one. */
function answerOf(wire: unknown, id: string | undefined): HookAnswer | undefined {
  if (typeof wire !== "object" || wire === null || id === undefined) return undefined;
  const { status, ms, code, message } = wire as Record<string, unknown>;
  if (typeof ms !== "number") return undefined;
  const known =
    status === "ok" ||
    (status === "error" && typeof code === "string" && knownCodes.has(code) && typeof message === "string");
  if (!known) return undefined;
  // The object is the channel's fresh parse of the message: naming the hook on it copies nothing.
  const answer = wire as HookAnswer;
  answer.hook = id;
  return answer;
}
