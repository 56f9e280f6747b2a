import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/** CPU time (user + system) a process has used so far, in µs; undefined where /proc is missing. */
export function processCpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After "pid (comm) ", fields start at state (3rd); utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1e6) / ticksPerSecond : undefined;
  } catch {
    return undefined;
  }
}
