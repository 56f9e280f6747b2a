export interface Summary {
  median: number;
  /** Nearest-rank 90th percentile. */
  p90: number;
  min: number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (i: number) => sorted[Math.min(Math.max(i, 0), sorted.length - 1)] ?? Number.NaN;
  const mid = sorted.length >> 1;
  return {
    median: sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2,
    p90: at(Math.ceil(0.9 * sorted.length) - 1),
    min: at(0),
  };
}
