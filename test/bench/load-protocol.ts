import type { LatencySummary } from './latency-stats';

/** What the parent asks the load generator process to do (sent over the fork IPC channel). */
export interface LoadJob {
  origin: string;
  /** Request paths, walked round robin; each client starts at its own offset. */
  paths: string[];
  headers: Record<string, string>;
  clients: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadResult extends LatencySummary {
  /** Non-200 answers and failed requests, warm-up included: any of them fails the bench. */
  errors: number;
  errorSamples: string[];
  meanResponseBytes: number;
  /** CPU the generator itself used, in % of one core, over the whole job. */
  generatorCpuPercent: number;
}

export function isLoadJob(value: unknown): value is LoadJob {
  if (typeof value !== 'object' || value === null) return false;
  const job = value as Partial<LoadJob>;
  return (
    typeof job.origin === 'string' &&
    Array.isArray(job.paths) &&
    job.paths.length > 0 &&
    typeof job.clients === 'number' &&
    typeof job.seconds === 'number' &&
    typeof job.warmupSeconds === 'number' &&
    typeof job.headers === 'object'
  );
}

export function isLoadResult(value: unknown): value is LoadResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Partial<LoadResult>;
  return typeof result.perSecond === 'number' && typeof result.errors === 'number' && Array.isArray(result.errorSamples);
}
