import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type IsolatedVM from "isolated-vm-7";
import type { SandboxErrorCode } from "../errors.js";
import type { HookSpec, SandboxLimits } from "../wire/types.js";
import type { BatchInput } from "./batch-input.js";
import type { BridgeFunction } from "./bridge.js";
import { maxLogLinesPerCall } from "./call-log.js";
import { cpuStretch } from "./cpu-share.js";
import ivm from "./isolated-vm.js";
import type { IsolateWatchdog, WatchedCall } from "./watchdog.js";

export interface Failure {
  code: SandboxErrorCode;
  message: string;
}

export type CallOutcome = { envelope: unknown } | Failure;

/** The largest JSON a hook may hand to one API call (a file to write, a request body). */
const maxCallBytes = 16 * 1024 * 1024;

/**
 * The guest bootstrap (guest/bootstrap.js: plain JavaScript, not a module), read once when this
 * process loads the runtime, beside this file's folder both in the source tree and in dist/ (the
 * build copies it). It declares `bootstrap`; the closure isolated-vm makes of it calls that.
 */
const guestBootstrap = `${readFileSync(new URL("../guest/bootstrap.js", import.meta.url), "utf8")}\nreturn bootstrap($0, $1);\n`;

/** Handed to the guest by transfer: entry points are taken as References and applied with a timeout. */
const asReference = { reference: true } as const;

/**
 * A heap this full when a call is stopped for time counts as out of memory: isolated-vm's own mark
 * for "moderate" memory pressure (it stops the isolate itself at 100%). Read at the stop, a memory
 * bomb in a 16 MB isolate held 83-91% of it; a spinning or garbage-churning hook 3-35%, a hook
 * that keeps 12 MB of a 32 MB limit 36-38%.
 */
const nearHeapLimit = 0.8;

/** The bound on reading a stopped isolate's heap (see heapAtStop). */
const heapReadMs = 5;

/**
 * One hook's isolate: its context, its compiled bundle and warm handles to the bootstrap's entry
 * points. Every failure of the isolate disposes it; the caller makes a fresh one for the next call.
 */
export class HookIsolate {
  private disposedFor: Failure | undefined;

  private constructor(
    private readonly isolate: IsolatedVM.Isolate,
    private readonly run: IsolatedVM.Reference,
    private readonly take: IsolatedVM.Reference,
    private readonly wait: IsolatedVM.Reference,
    private readonly limits: SandboxLimits,
    private readonly watchdog: IsolateWatchdog,
    private readonly catastrophe: { message?: string },
    private readonly context: IsolatedVM.Context,
  ) {}

  /**
   * Creates the isolate, runs the bootstrap, then compiles, links and evaluates the bundle as an ES
   * module. The bundle's top-level code is hook code: it runs under the CPU timeout like a call.
   */
  static load(
    spec: HookSpec,
    bridge: BridgeFunction,
    watchdog: IsolateWatchdog,
    onCatastrophicError: (message: string) => void,
  ): HookIsolate | Failure {
    const { limits } = spec;
    // The bootstrap and the bundle's top-level code run under cpuMs as a call does, stretched alike.
    const timeout = Math.ceil(limits.cpuMs * cpuStretch());
    const catastrophe: { message?: string } = {};
    let context: IsolatedVM.Context | undefined;
    const isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      onCatastrophicError: (message) => {
        catastrophe.message = message;
        onCatastrophicError(message);
      },
    });
    try {
      context = isolate.createContextSync();
      const settings = JSON.stringify({
        name: spec.name,
        maxResultBytes: limits.maxResultBytes,
        maxLogBytes: limits.maxLogBytes,
        maxLogLines: maxLogLinesPerCall,
        maxCallBytes,
        config: spec.config ?? {},
      });
      const entries = context.evalClosureSync(guestBootstrap, [new ivm.Reference(bridge), settings], {
        result: asReference,
        timeout,
        filename: "hookyard:bootstrap",
      }) as IsolatedVM.Reference<unknown[]>;
      const [attach, run, take, wait] = [0, 1, 2, 3].map((i) => entries.getSync(i, asReference));
      entries.release();

      let module: IsolatedVM.Module;
      try {
        module = isolate.compileModuleSync(spec.source, { filename: `hook:${spec.name}.mjs` });
      } catch (error) {
        return compileFailure(`the bundle does not compile: ${messageOf(error)}`);
      }
      if (module.dependencySpecifiers.length > 0) {
        return compileFailure(
          `the bundle imports ${module.dependencySpecifiers.map((s) => JSON.stringify(s)).join(", ")}; a hook bundle must be self-contained (hookyard pack bundles its imports)`,
        );
      }
      module.instantiateSync(context, () => {
        throw new Error("a hook bundle has no imports");
      });
      try {
        module.evaluateSync({ timeout });
      } catch (error) {
        const failure = classify(error, isolate, limits, catastrophe, context);
        if (failure.code !== "SANDBOX_ERR_THREW") return disposed(failure);
        return compileFailure(`the bundle threw while loading: ${failure.message}`);
      }
      const problem = (attach as IsolatedVM.Reference).applySync(undefined, [module.namespace.derefInto()], {
        timeout,
      });
      if (problem !== "") return compileFailure(String(problem));
      return new HookIsolate(
        isolate,
        run as IsolatedVM.Reference,
        take as IsolatedVM.Reference,
        wait as IsolatedVM.Reference,
        limits,
        watchdog,
        catastrophe,
        context,
      );
    } catch (error) {
      return disposed(classify(error, isolate, limits, catastrophe, context));
    }

    function disposed(failure: Failure): Failure {
      if (!isolate.isDisposed) isolate.dispose();
      return failure;
    }
    function compileFailure(message: string): Failure {
      return disposed({ code: "SANDBOX_ERR_COMPILE", message });
    }
  }

  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  /**
   * One handler call. The synchronous part (and the microtasks it queues) runs under isolated-vm's
   * timeout on this thread, and most handlers answer there: then so does this, without a promise.
   * If the handler's promise is still pending after that, the wait is bounded by the watchdog,
   * which disposes the isolate on a CPU or wall-time breach. Never throws: a failure is an outcome.
   */
  call(input: BatchInput, token: number, startedAt: number): CallOutcome | Promise<CallOutcome> {
    const { wallMs } = this.limits;
    const cpuAtStart = this.isolate.cpuTime;
    // isolated-vm's timeout and the running part of isolate.cpuTime are wall clocks: on a busy
    // machine the hook gets cpuMs of the CPU it is given, not cpuMs of waiting for one.
    const cpuBudgetMs = Math.ceil(this.limits.cpuMs * cpuStretch());
    const timeout = Math.max(1, Math.min(cpuBudgetMs, Math.floor(wallMs - (performance.now() - startedAt))));
    try {
      let envelope = this.run.applySync(undefined, [input.point, input.ctxJson(), input.outcomeJson, token], {
        timeout,
      });
      if (envelope === "") envelope = this.take.applySync(undefined, [], { timeout });
      if (envelope !== "") return { envelope };
    } catch (error) {
      return this.failed(error);
    }
    return this.settled(cpuAtStart, startedAt, cpuBudgetMs);
  }

  /** Waits for a handler's promise under the watchdog. */
  private async settled(cpuAtStart: bigint, startedAt: number, cpuBudgetMs: number): Promise<CallOutcome> {
    const { cpuMs, wallMs } = this.limits;
    const watched: WatchedCall = {
      cpuTime: () => (this.isolate.isDisposed ? cpuAtStart : this.isolate.cpuTime),
      cpuAtStart,
      startedAt,
      cpuMs: cpuBudgetMs,
      wallMs,
      breach: (kind) =>
        this.dispose(
          kind === "cpu"
            ? { code: "SANDBOX_ERR_TIMEOUT", message: `used more than cpuMs (${cpuMs} ms) of CPU` }
            : {
                code: "SANDBOX_ERR_TIMEOUT",
                message: `did not finish within wallMs (${wallMs} ms, including its API calls)`,
              },
        ),
    };
    this.watchdog.watch(watched);
    try {
      return { envelope: await this.wait.apply(undefined, [], { result: { promise: true, copy: true } }) };
    } catch (error) {
      return this.failed(error);
    } finally {
      this.watchdog.unwatch(watched);
    }
  }

  private failed(error: unknown): Failure {
    if (this.disposedFor) return this.disposedFor;
    const failure = classify(error, this.isolate, this.limits, this.catastrophe, this.context);
    if (failure.code === "SANDBOX_ERR_THREW") {
      return { code: failure.code, message: `an unhandled promise rejection: ${failure.message}` };
    }
    this.dispose(failure);
    return failure;
  }

  /** Idempotent; the first reason given is the one a call in flight reports. */
  dispose(reason: Failure = { code: "SANDBOX_ERR_CLOSED", message: "the isolate was disposed" }): void {
    this.disposedFor ??= reason;
    if (!this.isolate.isDisposed) this.isolate.dispose();
  }
}

/**
 * What an error out of isolated-vm means. Handlers never throw past the bootstrap, so an error that
 * is not a timeout or the memory limit is a throw of the bundle's top level, an unhandled rejection
 * the hook left behind (isolated-vm reports it at the end of the task), or the isolate's own failure.
 * `context` is the isolate's, when there is one: a stop for time is then weighed against the heap.
 */
function classify(
  error: unknown,
  isolate: IsolatedVM.Isolate,
  limits: SandboxLimits,
  catastrophe: { message?: string },
  context: IsolatedVM.Context | undefined,
): Failure {
  const message = messageOf(error);
  if (message === "Script execution timed out.") {
    const timeout: Failure = {
      code: "SANDBOX_ERR_TIMEOUT",
      message: `used more than cpuMs (${limits.cpuMs} ms) of CPU`,
    };
    if (context === undefined || isolate.isDisposed) return timeout;
    const heap = heapAtStop(isolate, context);
    // In the same words as isolated-vm's own stop: which one caught a bomb is down to timing.
    if (heap && heap.used >= nearHeapLimit * heap.limit) return outOfMemory(limits);
    if (!isolate.isDisposed) return timeout;
    // Disposed while its heap was read: isolated-vm's own memory check (or a catastrophe) got it.
  }
  if (catastrophe.message !== undefined) {
    return {
      code: "SANDBOX_ERR_CRASHED",
      message: `isolated-vm lost control of the isolate: ${catastrophe.message}`,
    };
  }
  // isolated-vm disposes an isolate by itself only when it hits its memory limit (or on a
  // catastrophe, handled above); a wait in flight then just says "Promise was abandoned".
  if (message.includes("memory limit") || isolate.isDisposed) {
    return outOfMemory(limits);
  }
  const name = error instanceof Error ? error.name : "";
  return { code: "SANDBOX_ERR_THREW", message: name && name !== "Error" ? `${name}: ${message}` : message };
}

function outOfMemory(limits: SandboxLimits): Failure {
  return { code: "SANDBOX_ERR_MEMORY", message: `ran out of memoryMb (${limits.memoryMb} MB)` };
}

/**
 * The heap of an isolate that isolated-vm has just stopped at its timeout, as it was at the stop.
 * Near its limit V8 spends most of its time collecting garbage: a memory bomb took 145-310 ms of
 * CPU to reach a 16 or 32 MB limit on Node 22, 24 and 26 (2 vCPU, idle), so at the default cpuMs
 * (100) it is usually stopped for time first. Whether its heap was at the limit then decides.
 *
 * How it is read matters, all measured:
 * - After the stop the bomb's data is garbage. Any task on the isolate may collect it first (its
 *   epilogue acts on the memory pressure isolated-vm noted), and the async getHeapStatistics()
 *   queues behind V8's own tasks: in the sandbox process it found the empty heap (0.6 MB) after
 *   13 of 18 bombs.
 * - getHeapStatisticsSync() from here runs the microtasks the hook left queued, with no timeout:
 *   `Promise.resolve().then(() => { for (;;) {} }); for (;;) {}` hung this thread for good.
 * - Called back from inside a timed call it reads the heap at once (isolated-vm's re-entrant path
 *   has no epilogue); the hook's leftover microtasks then run under heapReadMs and are cut.
 * The callback only reads; the closure is strict, so no stack trace hands it to hook code.
 */
function heapAtStop(
  isolate: IsolatedVM.Isolate,
  context: IsolatedVM.Context,
): { used: number; limit: number } | undefined {
  let heap: { used: number; limit: number } | undefined;
  const read = new ivm.Callback(() => {
    try {
      const stats = isolate.getHeapStatisticsSync();
      heap = { used: stats.used_heap_size + stats.externally_allocated_size, limit: stats.heap_size_limit };
    } catch {
      // Disposed under us: the caller sees isDisposed.
    }
  });
  try {
    context.evalClosureSync('"use strict"; $0();', [read], {
      // A wall clock too: the read itself is short, but on a busy machine it may wait for a CPU.
      timeout: Math.ceil(heapReadMs * cpuStretch()),
      filename: "hookyard:heap",
    });
  } catch {
    // The leftover microtasks ran out of heapReadMs, or the memory check stopped the isolate.
  }
  return heap;
}

/** Errors out of isolated-vm are host-side copies: reading them runs no hook code. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
