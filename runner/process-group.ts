import type { ChildProcess } from "node:child_process";

/** Kills a child spawned with `detached: true` and everything it started (its process group). */
export function killProcessGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}
