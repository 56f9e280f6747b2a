import { monotonicMs } from "../../core/monotonic.js";

export interface Watch {
  deadline: number;
  expire: () => void;
}

/**
 * The timeouts of the hook calls in flight, on one Node timer armed for the nearest deadline: a
 * setTimeout and clearTimeout per call cost several times a no-op hook. The timer is unref'd while
 * nothing is in flight, so an idle dispatcher does not keep the process alive.
 */
export class Watchdog {
  private readonly watches = new Set<Watch>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Number.POSITIVE_INFINITY;

  /** Calls `expire` in about `ms`, unless the returned watch is stopped first. */
  start(ms: number, expire: () => void): Watch {
    const watch = { deadline: monotonicMs() + ms, expire };
    this.watches.add(watch);
    if (watch.deadline < this.armedFor) this.arm(watch.deadline);
    else if (this.watches.size === 1) this.timer?.ref();
    return watch;
  }

  stop(watch: Watch): void {
    // The timer stays armed: it costs less to let it fire for nothing, or re-arm, than to re-create it.
    if (this.watches.delete(watch) && this.watches.size === 0) this.timer?.unref();
  }

  private arm(deadline: number): void {
    clearTimeout(this.timer);
    this.armedFor = deadline;
    this.timer = setTimeout(() => this.fire(), Math.max(1, Math.ceil(deadline - monotonicMs())));
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = monotonicMs();
    let next = Number.POSITIVE_INFINITY;
    for (const watch of this.watches) {
      if (watch.deadline <= now) {
        this.watches.delete(watch);
        watch.expire();
      } else next = Math.min(next, watch.deadline);
    }
    // Node may fire a timer a little before its deadline by this clock: the watch waits for the next.
    if (next !== Number.POSITIVE_INFINITY) this.arm(next);
  }
}
