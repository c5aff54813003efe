import { percentile } from './latency-stats';
import type { ProbeMarks } from './ui-page-probe';
import type { UiRun } from './ui-measure';

export type UiFigureId = 'ui-ready' | 'ui-first-page' | 'ui-expand' | 'ui-expand-first-rows' | 'ui-expand-all';

/** One UI figure over the measured runs, beside the API alone for the same requests. */
export interface UiFigure {
  id: UiFigureId;
  title: string;
  /** Checked against the median; undefined for figures reported for information. */
  targetMs?: number;
  samplesMs: number[];
  apiMs: number[];
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  apiMedianMs: number;
}

/** Where a figure's time and requests come from in one run: the probe record, its mark, painted or not. */
export interface FigureSource {
  id: UiFigureId;
  title: string;
  targetMs?: number;
  record(run: UiRun): ProbeMarks | undefined;
  mark: string;
  /** The ready marker is the issue's own end point; the others end when the change is painted. */
  painted: boolean;
}

/** The time a figure measures in one run, and the requests it waited for; undefined when not measured. */
export function sampleOf(source: FigureSource, run: UiRun): { ms: number; requests: ProbeMarks['requests'] } | undefined {
  const record = source.record(run);
  const end = record && (source.painted ? record.painted[source.mark] : record.marks[source.mark]);
  if (!record || end === undefined) return undefined;
  const markedAt = record.marks[source.mark];
  return { ms: end - record.start, requests: record.requests.filter((entry) => entry.responseEnd <= markedAt) };
}

export function summariseFigure(source: FigureSource, samplesMs: number[], apiMs: number[]): UiFigure {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const api = [...apiMs].sort((a, b) => a - b);
  return {
    id: source.id,
    title: source.title,
    targetMs: source.targetMs,
    samplesMs,
    apiMs,
    medianMs: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    maxMs: sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN,
    apiMedianMs: percentile(api, 50),
  };
}
