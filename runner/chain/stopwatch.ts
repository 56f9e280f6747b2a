import { monotonicMs } from "../../core/monotonic.js";

/** Times the hooks of one chain with one clock read each: a hook starts when the one before ends. */
export class Stopwatch {
  private last = monotonicMs();

  /** Milliseconds since the last lap (or the start); the next lap starts now. */
  lap(): number {
    const now = monotonicMs();
    const ms = now - this.last;
    this.last = now;
    return ms;
  }
}
