import type { Check } from './bench-targets';
import { percentile } from './latency-stats';
import { millis, textTable } from './text-table';

/** One workbook UI figure over the counted runs, beside the API alone for the same requests. */
export interface WorkbookFigure {
  title: string;
  targetMs: number;
  samplesMs: number[];
  apiMs: number[];
}

/** The load's progress bar in the page beside the service's progress events read from Node. */
export interface ProgressFigures {
  rows: number;
  loadSeconds: number;
  /** Times (ms) of each change of the bar's value, page clock. */
  barChanges: number[];
  /** Times (ms) of each progress event of the load on the event stream, Node's clock. */
  events: number[];
}

export const TARGET_UPDATES_PER_SECOND = 2;

const sortedOf = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
const median = (values: readonly number[]): number => percentile(sortedOf(values), 50);
const gaps = (times: readonly number[]): number[] => times.slice(1).map((time, at) => time - times[at]);

/** Median interval between updates, its updates per second, and the longest gap. */
export function cadence(times: readonly number[]): { medianMs: number; perSecond: number; maxGapMs: number; updates: number } {
  const between = gaps(times);
  const medianMs = median(between);
  return { medianMs, perSecond: 1000 / medianMs, maxGapMs: between.length > 0 ? Math.max(...between) : Number.NaN, updates: times.length };
}

export function workbookUiChecks(figures: WorkbookFigure[], progress: ProgressFigures | undefined, failures: string[]): Check[] {
  const checks: Check[] = figures.map((figure) => {
    const medianMs = median(figure.samplesMs);
    return {
      subject: `UI workbook: ${figure.title}`,
      target: `median < ${figure.targetMs} ms`,
      measured: figure.samplesMs.length > 0 ? `${medianMs.toFixed(0)} ms` : 'not measured',
      pass: figure.samplesMs.length > 0 && medianMs < figure.targetMs,
    };
  });
  const bar = progress ? cadence(progress.barChanges) : undefined;
  checks.push({
    subject: 'UI workbook: load progress bar updates',
    target: `>= ${TARGET_UPDATES_PER_SECOND}/s (median interval <= ${1000 / TARGET_UPDATES_PER_SECOND} ms)`,
    measured: bar && bar.updates > 1 ? `${bar.perSecond.toFixed(1)}/s (median ${bar.medianMs.toFixed(0)} ms)` : 'not measured',
    pass: bar !== undefined && bar.updates > 1 && bar.perSecond >= TARGET_UPDATES_PER_SECOND,
  });
  checks.push({ subject: 'UI workbook runs', target: 'no failed run', measured: `${failures.length} failed`, pass: failures.length === 0 });
  return checks;
}

export function workbookUiText(figures: WorkbookFigure[], progress: ProgressFigures | undefined, notes: string[], checks: Check[]): string {
  const rows = figures.map((figure) => {
    const sorted = sortedOf(figure.samplesMs);
    const medianMs = percentile(sorted, 50);
    const apiMs = median(figure.apiMs);
    return [
      figure.title,
      String(sorted.length),
      millis(medianMs),
      millis(percentile(sorted, 90)),
      millis(sorted.length > 0 ? sorted[sorted.length - 1] : Number.NaN),
      millis(apiMs),
      millis(medianMs - apiMs),
      `median < ${figure.targetMs} ms`,
      sorted.length > 0 && medianMs < figure.targetMs ? 'PASS' : 'FAIL',
    ];
  });
  const header = [
    'UI workbook (headless Chromium)',
    'runs',
    'median ms',
    'p90 ms',
    'max ms',
    'API alone ms',
    'UI share ms',
    'target',
    'result',
  ];
  const parts = [textTable(header, rows, new Set([1, 2, 3, 4, 5, 6]))];
  if (progress) {
    const bar = cadence(progress.barChanges);
    const events = cadence(progress.events);
    const line = (what: string, figures: ReturnType<typeof cadence>): string[] => [
      what,
      String(figures.updates),
      millis(figures.medianMs),
      figures.perSecond.toFixed(1),
      millis(figures.maxGapMs),
    ];
    parts.push(
      '',
      `Load of ${progress.rows.toLocaleString('en-US')} rows from the grid (${progress.loadSeconds.toFixed(1)} s, ${Math.round(
        progress.rows / progress.loadSeconds,
      ).toLocaleString('en-US')} rows/s):`,
      textTable(
        ['progress', 'updates', 'median interval ms', 'per second', 'longest gap ms'],
        [line('bar value in the page', bar), line('progress events from Node (event stream)', events)],
        new Set([1, 2, 3, 4]),
      ),
    );
  }
  parts.push(
    ...notes,
    ...checks.map((check) => `${check.pass ? 'PASS' : 'FAIL'}  ${check.subject}: ${check.measured} (target ${check.target})`),
  );
  return parts.join('\n');
}
