import { performance } from "node:perf_hooks";

/** Times the hooks of one chain with one clock read each: a hook starts when the one before ends. */
export class Stopwatch {
  private last = performance.now();

  /** Milliseconds since the last lap (or the start); the next lap starts now. */
  lap(): number {
    const now = performance.now();
    const ms = now - this.last;
    this.last = now;
    return ms;
  }
}
