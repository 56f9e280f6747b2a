import { performance } from "node:perf_hooks";
import type IsolatedVM from "isolated-vm-7";
import type { SandboxErrorCode } from "../errors.js";
import type { BatchInput } from "./batch-input.js";
import type { BridgeFunction } from "./bridge.js";
import { guestBootstrap } from "./guest-bootstrap.js";
import ivm from "./isolated-vm.js";
import { maxLogLinesPerCall } from "./limits.js";
import type { HookSpec, SandboxLimits } from "./types.js";
import type { IsolateWatchdog, WatchedCall } from "./watchdog.js";

export interface Failure {
  code: SandboxErrorCode;
  message: string;
}

export type CallOutcome = { envelope: unknown } | Failure;

/** The largest JSON a hook may hand to one API call (a file to write, a request body). */
const maxCallBytes = 16 * 1024 * 1024;

/** Handed to the guest by transfer: entry points are taken as References and applied with a timeout. */
const asReference = { reference: true } as const;

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
    const catastrophe: { message?: string } = {};
    const isolate = new ivm.Isolate({
      memoryLimit: limits.memoryMb,
      onCatastrophicError: (message) => {
        catastrophe.message = message;
        onCatastrophicError(message);
      },
    });
    try {
      const context = isolate.createContextSync();
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
        timeout: limits.cpuMs,
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
        module.evaluateSync({ timeout: limits.cpuMs });
      } catch (error) {
        const failure = classify(error, isolate, limits, catastrophe);
        if (failure.code !== "SANDBOX_ERR_THREW") return disposed(failure);
        return compileFailure(`the bundle threw while loading: ${failure.message}`);
      }
      const problem = (attach as IsolatedVM.Reference).applySync(undefined, [module.namespace.derefInto()], {
        timeout: limits.cpuMs,
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
      );
    } catch (error) {
      return disposed(classify(error, isolate, limits, catastrophe));
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
    const { cpuMs, wallMs } = this.limits;
    const cpuAtStart = this.isolate.cpuTime;
    const timeout = Math.max(1, Math.min(cpuMs, Math.floor(wallMs - (performance.now() - startedAt))));
    try {
      let envelope = this.run.applySync(undefined, [input.point, input.ctxJson(), input.outcomeJson, token], {
        timeout,
      });
      if (envelope === "") envelope = this.take.applySync(undefined, [], { timeout });
      if (envelope !== "") return { envelope };
    } catch (error) {
      return this.failed(error);
    }
    return this.settled(cpuAtStart, startedAt);
  }

  /** Waits for a handler's promise under the watchdog. */
  private async settled(cpuAtStart: bigint, startedAt: number): Promise<CallOutcome> {
    const { cpuMs, wallMs } = this.limits;
    const watched: WatchedCall = {
      cpuTime: () => (this.isolate.isDisposed ? cpuAtStart : this.isolate.cpuTime),
      cpuAtStart,
      startedAt,
      cpuMs,
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
    const failure = classify(error, this.isolate, this.limits, this.catastrophe);
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
 */
function classify(
  error: unknown,
  isolate: IsolatedVM.Isolate,
  limits: SandboxLimits,
  catastrophe: { message?: string },
): Failure {
  const message = messageOf(error);
  if (message === "Script execution timed out.") {
    return { code: "SANDBOX_ERR_TIMEOUT", message: `used more than cpuMs (${limits.cpuMs} ms) of CPU` };
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
    return { code: "SANDBOX_ERR_MEMORY", message: `ran past memoryMb (${limits.memoryMb} MB)` };
  }
  const name = error instanceof Error ? error.name : "";
  return { code: "SANDBOX_ERR_THREW", message: name && name !== "Error" ? `${name}: ${message}` : message };
}

/** Errors out of isolated-vm are host-side copies: reading them runs no hook code. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
