import type { LatencySummary } from './latency-stats';
import type { LoadResult } from './load-protocol';

/** The acceptance targets. */
export const TARGETS = {
  getThroughputRatio: 0.4,
  listThroughputRatio: 0.5,
  listP99Ms: 15,
  listP99Clients: 8,
  seedSecondsPerMillion: 60,
  searchP99Ms: 50,
  searchP99Clients: 8,
  /** UI in headless Chromium, checked against the median of the runs (see README). */
  uiReadyMs: 1500,
  uiFirstPageMs: 300,
  uiExpandMs: 500,
  /** Sync (BENCH_ONLY=sync): a whole pull's lines/s over a bare client's reading the same pages, a push's rows/s over the remote's own bulk load. */
  syncPullRatio: 0.5,
  syncPushRatio: 0.5,
} as const;

export interface Baseline {
  id: 'raw-http' | 'raw-sql' | 'raw-sql-search';
  title: string;
  clients: number;
  summary: LatencySummary;
  errors: number;
  /** Load details when the baseline was measured over HTTP. */
  http?: { result: LoadResult; serverCpuPercent: number | undefined };
}

export interface Scenario {
  id: string;
  title: string;
  clients: number;
  result: LoadResult;
  serverCpuPercent: number | undefined;
  baseline: Baseline;
  /** Reported beside the others for a full picture; no target applies. */
  informational?: boolean;
}

export interface Check {
  subject: string;
  target: string;
  measured: string;
  pass: boolean;
}

export const ratioOf = (scenario: Scenario): number => scenario.result.perSecond / scenario.baseline.summary.perSecond;

/** Every target a scenario carries; a scenario with errors fails whatever its figures. */
export function scenarioChecks(scenario: Scenario): Check[] {
  const noErrors: Check = {
    subject: scenario.title,
    target: 'no failed requests',
    measured: `${scenario.result.errors} errors`,
    pass: scenario.result.errors === 0,
  };
  if (scenario.informational) return [noErrors];
  if (scenario.baseline.id === 'raw-sql-search') {
    // The issue sets a latency target for search; its raw SQL is printed beside it for scale.
    const p99 = scenario.result.p99Ms;
    return [
      {
        subject: scenario.title,
        target: `p99 < ${TARGETS.searchP99Ms} ms`,
        measured: `${p99.toFixed(2)} ms`,
        pass: p99 < TARGETS.searchP99Ms,
      },
      noErrors,
    ];
  }
  const ratio = ratioOf(scenario);
  const minimum = scenario.baseline.id === 'raw-http' ? TARGETS.getThroughputRatio : TARGETS.listThroughputRatio;
  const checks: Check[] = [
    {
      subject: scenario.title,
      target: `req/s >= ${Math.round(minimum * 100)}% of ${scenario.baseline.title}`,
      measured: `${(ratio * 100).toFixed(1)}%`,
      pass: ratio >= minimum,
    },
  ];
  if (scenario.baseline.id === 'raw-sql' && scenario.clients === TARGETS.listP99Clients) {
    const p99 = scenario.result.p99Ms;
    checks.push({
      subject: scenario.title,
      target: `p99 < ${TARGETS.listP99Ms} ms`,
      measured: `${p99.toFixed(2)} ms`,
      pass: p99 < TARGETS.listP99Ms,
    });
  }
  checks.push(noErrors);
  return checks;
}

/** 60 s per million rows: the 1M target, scaled for the quick runs of BENCH_ROWS. */
export function seedCheck(rows: number, seconds: number): Check {
  const limit = (TARGETS.seedSecondsPerMillion * rows) / 1_000_000;
  return {
    subject: `seeding ${rows.toLocaleString('en-US')} lines`,
    target: `< ${limit.toFixed(rows >= 1_000_000 ? 0 : 1)} s`,
    measured: `${seconds.toFixed(1)} s`,
    pass: seconds < limit,
  };
}

export function baselineCheck(baseline: Baseline): Check {
  return { subject: baseline.title, target: 'no failed requests', measured: `${baseline.errors} errors`, pass: baseline.errors === 0 };
}
