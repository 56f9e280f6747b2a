import { performance } from "node:perf_hooks";

export interface WatchedCall {
  /** The isolate's total CPU time in nanoseconds (isolated-vm's `cpuTime`). */
  cpuTime(): bigint;
  readonly cpuAtStart: bigint;
  readonly startedAt: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  /** Called once, on the first breach; it disposes the isolate. */
  breach(kind: "cpu" | "wall"): void;
}

const pollMs = 5;

/**
 * isolated-vm's `timeout` covers only the synchronous part of a call: code that runs after an
 * await on a host call, and a promise that never settles, are bounded only by this poll of each
 * waiting call's CPU and wall time. It runs only while some call is waiting.
 */
export class IsolateWatchdog {
  private readonly calls = new Set<WatchedCall>();
  private timer: NodeJS.Timeout | undefined;

  watch(call: WatchedCall): void {
    this.calls.add(call);
    this.timer ??= setInterval(() => this.poll(), pollMs);
  }

  unwatch(call: WatchedCall): void {
    this.calls.delete(call);
    if (this.calls.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private poll(): void {
    const now = performance.now();
    for (const call of this.calls) {
      if (now - call.startedAt > call.wallMs) {
        this.unwatch(call);
        call.breach("wall");
      } else if (call.cpuTime() - call.cpuAtStart > BigInt(call.cpuMs) * 1_000_000n) {
        this.unwatch(call);
        call.breach("cpu");
      }
    }
  }
}
