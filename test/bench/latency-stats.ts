/** Throughput and latency of one measured window; latencies in milliseconds. */
export interface LatencySummary {
  count: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarise(latenciesMs: number[], seconds: number): LatencySummary {
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    count: sorted.length,
    seconds,
    perSecond: seconds > 0 ? sorted.length / seconds : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
  };
}
