/**
 * Rows per second and time left of a running load, from its progress events (one per batch, a
 * few per second). The rate is over the last few seconds, so a load that slows (bigger rows,
 * a busy disk) shows its time left growing rather than an average of its fast start.
 */
export interface ProgressSample {
  /** ms (performance.now or Date.now: any clock, the same for every sample) */
  at: number;
  done: number;
  total: number;
}

const WINDOW_MS = 5000;

/** Samples kept: those of the last window, and the one just before it when the window holds only the newest. */
export function keepSamples(samples: ProgressSample[], next: ProgressSample): ProgressSample[] {
  const all = [...samples, next];
  const firstInWindow = all.findIndex((sample) => sample.at >= next.at - WINDOW_MS);
  return all.slice(all.length - firstInWindow >= 2 ? firstInWindow : Math.max(0, firstInWindow - 1));
}

export interface LoadFigures {
  done: number;
  total: number;
  /** undefined until two samples a moment apart exist. */
  rowsPerSecond?: number;
  secondsLeft?: number;
}

export function loadFigures(samples: ProgressSample[]): LoadFigures | undefined {
  const last = samples[samples.length - 1];
  if (!last) return undefined;
  const first = samples[0];
  const elapsed = (last.at - first.at) / 1000;
  if (samples.length < 2 || elapsed <= 0 || last.done <= first.done) return { done: last.done, total: last.total };
  const rowsPerSecond = (last.done - first.done) / elapsed;
  return { done: last.done, total: last.total, rowsPerSecond, secondsLeft: Math.max(0, (last.total - last.done) / rowsPerSecond) };
}

export function durationText(seconds: number): string {
  if (seconds < 1) return 'under a second';
  if (seconds < 90) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
