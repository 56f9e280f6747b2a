/**
 * How long a test waits for a process it started (a CLI run, a daemon, a registry, a sandbox
 * process) to start, answer or exit, wherever it waits by polling or by a kill timer. It bounds a
 * hang; it measures nothing: the wait ends as soon as the process is there. On a 2-core machine
 * at a load of 10 (a second copy of the suite alongside) starting Node alone took seconds, so a
 * few seconds is a limit a healthy process can break.
 */
export const processWaitMs = 60_000;
