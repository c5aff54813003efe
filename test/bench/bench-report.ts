import { ratioOf, scenarioChecks, type Baseline, type Check, type Scenario } from './bench-targets';
import type { SeedTiming } from './seed-lines';
import { millis, perSecond, textTable } from './text-table';
import { uiReportText } from './ui-report';
import type { UiOutcome } from './ui-steps';

export interface BenchOutcome {
  rows: number;
  seed: SeedTiming;
  baselines: Baseline[];
  scenarios: Scenario[];
  checks: Check[];
  /** The UI bench in headless Chromium, unless BENCH_ONLY=load. */
  ui?: UiOutcome;
}

export function seedingText(rows: number, seed: SeedTiming): string {
  return (
    `Seeding: ${rows.toLocaleString('en-US')} LineRelation rows in ${seed.totalSeconds.toFixed(1)} s ` +
    `(nodes via the service ${seed.topologySeconds.toFixed(1)} s, inserts ${seed.insertSeconds.toFixed(1)} s, ` +
    `indexes ${seed.indexSeconds.toFixed(1)} s, ANALYZE + checkpoint ${seed.analyzeSeconds.toFixed(1)} s)`
  );
}

function baselinesTable(baselines: Baseline[]): string {
  const rows = baselines.map((baseline) => [
    baseline.title,
    String(baseline.clients),
    perSecond(baseline.summary.perSecond),
    millis(baseline.summary.p50Ms),
    millis(baseline.summary.p99Ms),
    String(baseline.errors),
  ]);
  return textTable(['baseline', 'clients', 'req/s', 'p50 ms', 'p99 ms', 'errors'], rows, new Set([1, 2, 3, 4, 5]));
}

function scenariosTable(scenarios: Scenario[]): string {
  const rows = scenarios.map((scenario) => {
    const checks = scenarioChecks(scenario);
    const { result } = scenario;
    return [
      scenario.title,
      String(scenario.clients),
      perSecond(result.perSecond),
      millis(result.p50Ms),
      millis(result.p99Ms),
      String(result.errors),
      `${scenario.baseline.title} ${perSecond(scenario.baseline.summary.perSecond)}/s`,
      `${(ratioOf(scenario) * 100).toFixed(1)}%`,
      checks
        .filter((check) => check.target !== 'no failed requests')
        .map((check) => check.target)
        .join('; '),
      checks.every((check) => check.pass) ? 'PASS' : 'FAIL',
    ];
  });
  const header = ['scenario', 'clients', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'baseline', 'ratio', 'target', 'result'];
  return textTable(header, rows, new Set([1, 2, 3, 4, 5, 7]));
}

/** Where the CPU went: a server short of 100% or a generator near it means the figure is not the server's ceiling. */
function resourcesTable(baselines: Baseline[], scenarios: Scenario[]): string {
  const percent = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(0)}%`);
  const measured = [
    ...baselines.flatMap((baseline) => (baseline.http ? [{ title: baseline.title, clients: baseline.clients, ...baseline.http }] : [])),
    ...scenarios.map((scenario) => ({
      title: scenario.title,
      clients: scenario.clients,
      result: scenario.result,
      serverCpuPercent: scenario.serverCpuPercent,
    })),
  ];
  const rows = measured.map((entry) => [
    entry.title,
    String(entry.clients),
    percent(entry.serverCpuPercent),
    percent(entry.result.generatorCpuPercent),
    Math.round(entry.result.meanResponseBytes).toLocaleString('en-US'),
    millis(entry.result.maxMs),
  ]);
  return textTable(['HTTP run', 'clients', 'server CPU', 'generator CPU', 'bytes/response', 'max ms'], rows, new Set([1, 2, 3, 4, 5]));
}

export function reportText(outcome: BenchOutcome): string {
  const checks = textTable(
    ['subject', 'target', 'measured', 'result'],
    outcome.checks.map((check) => [check.subject, check.target, check.measured, check.pass ? 'PASS' : 'FAIL']),
    new Set([2]),
  );
  const errors = outcome.scenarios.flatMap((scenario) => scenario.result.errorSamples.map((sample) => `  ${scenario.title}: ${sample}`));
  return [
    seedingText(outcome.rows, outcome.seed),
    '',
    // BENCH_ONLY=ui measures no HTTP load: its tables would be empty.
    ...(outcome.scenarios.length > 0
      ? [
          baselinesTable(outcome.baselines),
          '',
          scenariosTable(outcome.scenarios),
          '',
          resourcesTable(outcome.baselines, outcome.scenarios),
          '',
        ]
      : []),
    ...(outcome.ui ? [uiReportText(outcome.ui), ''] : []),
    checks,
    ...(errors.length > 0 ? ['', 'Sample errors:', ...errors] : []),
  ].join('\n');
}
