import { performance } from "node:perf_hooks";
import type { Broker } from "../broker/index.js";
import type { HookAnswer, HookSpec } from "../wire/types.js";
import type { BatchInput } from "./batch-input.js";
import { type ActiveCall, type BridgeFunction, createBridge } from "./bridge.js";
import { CallLog } from "./call-log.js";
import { readEnvelope } from "./envelope.js";
import { type CallOutcome, type Failure, HookIsolate } from "./hook-isolate.js";
import type { RuntimeServices } from "./types.js";
import type { IsolateWatchdog } from "./watchdog.js";

const maxOrphanedCalls = 1_000;
/**
 * A call the hook did not await reaches the bridge when this process's event loop gets to it, which
 * on a busy machine can be after the hook's next call began: the last few calls are still known by
 * their token, so such an API call is made whatever the order, while what one hook keeps in flight
 * stays bounded (this many calls, each with at most maxPendingHostCalls).
 */
const recentCallsKept = 8;

export interface SlotAnswer {
  answer: HookAnswer;
  logs: readonly string[];
}

/**
 * Everything the runtime keeps for one hook id: its broker, the bridge its bootstrap calls, and its
 * isolate, made on first use and again after a failure disposed it. Calls to one hook run one at a
 * time, so a call's log lines, API calls and CPU time are its own.
 */
export class HookSlot {
  private isolate: HookIsolate | undefined;
  /** A bundle that did not compile fails the same way every time: the same bytes, the same error. */
  private loadFailure: Failure | undefined;
  private active: ActiveCall | undefined;
  private readonly recent = new Map<number, ActiveCall>();
  private lastToken = 0;
  private busy = false;
  private readonly waiting: (() => void)[] = [];
  private readonly bridge: BridgeFunction;
  /**
   * Results of API calls that outlived their call wait on this forever, so no hook code runs
   * between calls. isolated-vm keeps a reaction on it per such result: past a bound, the isolate
   * is replaced and the old promise, with everything hanging on it, is let go.
   */
  private never = new Promise<string>(() => {});
  private orphans = 0;

  constructor(
    readonly spec: HookSpec,
    broker: () => Promise<Broker>,
    services: RuntimeServices,
    private readonly watchdog: IsolateWatchdog,
    private readonly onCatastrophicError: (message: string) => void,
  ) {
    this.bridge = createBridge({
      id: spec.id,
      broker,
      services,
      current: () => this.active,
      callFor: (token) => (typeof token === "number" ? this.recent.get(token) : undefined),
      orphan: () => {
        this.orphans++;
        return this.never;
      },
    });
  }

  get id(): string {
    return this.spec.id;
  }

  /** An answer at once when the slot is free and the handler answers synchronously, as most do. */
  call(input: BatchInput): SlotAnswer | Promise<SlotAnswer> {
    // The slot passes from one call to the next without ever being free in between.
    if (this.busy) return this.callLater(input);
    this.busy = true;
    let answer: SlotAnswer | Promise<SlotAnswer>;
    try {
      answer = this.callNow(input);
    } catch (error) {
      this.release();
      throw error;
    }
    if (!(answer instanceof Promise)) {
      this.release();
      return answer;
    }
    return answer.finally(() => this.release());
  }

  private async callLater(input: BatchInput): Promise<SlotAnswer> {
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await this.callNow(input);
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.busy = false;
  }

  dispose(): void {
    this.isolate?.dispose();
  }

  private callNow(input: BatchInput): SlotAnswer | Promise<SlotAnswer> {
    // The call's time, as its answer reports it, counts from here; its wallMs only from when the
    // hook's code can run, once its isolate is made and its bundle loaded (the bundle's top-level
    // code has a CPU limit of its own).
    const calledAt = performance.now();
    let startedAt = calledAt;
    const { limits } = this.spec;
    const log = new CallLog(limits.maxLogBytes);
    const { ctxBytes } = input;
    if (ctxBytes > limits.maxCtxBytes) {
      return this.failed(startedAt, log, {
        code: "SANDBOX_ERR_CTX_TOO_LARGE",
        message: `the ctx is ${ctxBytes} bytes, more than maxCtxBytes (${limits.maxCtxBytes})`,
      });
    }
    if (this.loadFailure) return this.failed(startedAt, log, this.loadFailure);
    if (!this.isolate || this.isolate.disposed) {
      const loaded = HookIsolate.load(this.spec, this.bridge, this.watchdog, this.onCatastrophicError);
      if (!(loaded instanceof HookIsolate)) {
        if (loaded.code === "SANDBOX_ERR_COMPILE") this.loadFailure = loaded;
        return this.failed(startedAt, log, loaded);
      }
      this.isolate = loaded;
      startedAt = performance.now();
    }
    const isolate = this.isolate;
    const call: ActiveCall = { token: ++this.lastToken, log, pending: 0 };
    this.active = call;
    this.recent.set(call.token, call);
    this.recent.delete(call.token - recentCallsKept);
    const outcome = isolate.call(input, call.token, startedAt);
    if (!(outcome instanceof Promise)) return this.answer(isolate, calledAt, log, outcome);
    return outcome.then((settled) => this.answer(isolate, calledAt, log, settled));
  }

  private answer(isolate: HookIsolate, startedAt: number, log: CallLog, outcome: CallOutcome): SlotAnswer {
    this.active = undefined;
    if (this.orphans > maxOrphanedCalls) {
      isolate.dispose();
      this.never = new Promise<string>(() => {});
      this.orphans = 0;
    }
    if (!("envelope" in outcome)) return this.failed(startedAt, log, outcome);
    const ms = performance.now() - startedAt;
    const answer = readEnvelope(this.id, outcome.envelope, this.spec.limits.maxResultBytes, ms);
    return { answer, logs: log.lines };
  }

  private failed(startedAt: number, log: CallLog, failure: Failure): SlotAnswer {
    return {
      answer: { hook: this.id, status: "error", ...failure, ms: performance.now() - startedAt },
      logs: log.lines,
    };
  }
}
