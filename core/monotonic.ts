/**
 * Milliseconds on a monotonic clock, for durations. Not `performance.now()`: the first read of
 * `performance` loads node's perf_hooks (eleven modules), a cost on every event the exec process
 * answers itself.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
