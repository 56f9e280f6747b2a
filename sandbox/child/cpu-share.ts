import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";

/** The most a call's CPU timer is stretched, however busy the machine: cpuMs times this. */
export const maxCpuStretch = 10;

/**
 * On a busy machine the estimate below is of an average share; a CPU-bound thread in a crowded
 * process group got less (measured: a call that took 133 ms at a load of 10 on 2 cores took 885 ms
 * in the next run, 6.6 times, with the load saying 5.4). Once the machine is busy the stretch is
 * doubled, so a healthy hook is not cut; a hostile one then gets at most about twice its cpuMs,
 * and only while the machine is overloaded.
 */
const busyMargin = 2;

/** How often the machine's load is read again; in between, the last reading holds. */
const sampleMs = 250;

let sampledAt = Number.NEGATIVE_INFINITY;
let stretch = 1;
/** This thread's time on a CPU and waiting for one (ns), at the last reading. */
let lastRun = 0;
let lastWait = 0;
/** The last ratio read from this thread's own scheduling, kept while the thread was idle. */
let threadStretch = 1;

/**
 * How many milliseconds of wall time a CPU-bound call needs per millisecond of CPU on this machine
 * now: 1 on a machine with a core to spare, more on a busy one. isolated-vm's `timeout` (and the
 * running part of `isolate.cpuTime`) is a wall clock, so the CPU limits of a call are given `cpuMs`
 * times this in wall time: a hook waiting for a CPU is not using one, and cpuMs must not trip on a
 * healthy hook because the machine is busy. An endless loop is still stopped after about cpuMs of
 * the CPU it actually got (at most busyMargin times that). Capped at maxCpuStretch, and a call
 * never gets more than what is left of its wallMs.
 *
 * Read from the runnable threads per core (the 1-minute load average, or the threads runnable
 * right now if more) and from how long this thread itself waited for a CPU per millisecond on one
 * since the last reading (Linux's schedstat), whichever says busier.
 */
export function cpuStretch(now: number = performance.now()): number {
  if (now - sampledAt < sampleMs) return stretch;
  sampledAt = now;
  const cores = availableParallelism();
  let demand = loadavg()[0] ?? 0;
  try {
    // "0.52 0.58 0.59 3/257 12345": the fourth field is runnable/total scheduling entities.
    const runnable = Number.parseInt(readFileSync("/proc/loadavg", "latin1").split(" ")[3] ?? "", 10);
    if (Number.isFinite(runnable)) demand = Math.max(demand, runnable);
  } catch {
    // Not Linux: the load average alone (0 where the platform has none, as on Windows).
  }
  try {
    // "<ns on a CPU> <ns waiting on a run queue> <timeslices>"
    const [run, wait] = readFileSync("/proc/thread-self/schedstat", "latin1").split(" ").map(Number);
    if (run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait)) {
      const ran = run - lastRun;
      // Too little CPU since the last reading says nothing: the last ratio holds, fading.
      if (ran > 2_000_000 && lastRun > 0) threadStretch = (ran + (wait - lastWait)) / ran;
      else threadStretch = Math.max(1, threadStretch * 0.9);
      lastRun = run;
      lastWait = wait;
    }
  } catch {
    // No schedstat here: the load alone.
  }
  const estimate = Math.max(1, demand / cores, threadStretch);
  stretch = estimate > 1.25 ? Math.min(maxCpuStretch, estimate * busyMargin) : 1;
  return stretch;
}
