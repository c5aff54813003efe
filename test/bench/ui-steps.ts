import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { BenchConfig } from './bench-config';
import type { FullOutcome } from './bench-steps';
import { seedCheck, TARGETS, type Check } from './bench-targets';
import { startChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { blockPrefix } from './line-patterns';
import { explainList } from './list-plan';
import { LINE_MODEL } from './list-query';
import type { SeededStore } from './seed-lines';
import { ApiReplayer, waves } from './ui-api-baseline';
import { benchContext, launchBrowser, signIn } from './ui-browser';
import { sampleOf, summariseFigure, type FigureSource, type UiFigure } from './ui-figures';
import { measureRun, type UiRun, type UiRunPlan } from './ui-measure';
import { rendererFolder } from './ui-renderer-build';
import { seedWideNode, type WideNode } from './ui-seed';

export interface UiOutcome {
  runs: number;
  warmups: number;
  /** Undefined when the set-up failed before it was seeded. */
  wideNode?: WideNode;
  sitePaths: string[];
  figures: UiFigure[];
  /** Why the first-page figure is missing, when it is. */
  listSkipped?: string;
  /** Runs that failed, with why; their figures are left out. */
  failures: string[];
}

const WIDE_CHILDREN = 10_000;
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

const SOURCES: FigureSource[] = [
  {
    id: 'ui-ready',
    title: 'start to ready marker',
    targetMs: TARGETS.uiReadyMs,
    record: (run) => run.ready,
    mark: 'ready',
    painted: false,
  },
  {
    id: 'ui-first-page',
    title: 'tree click to first list page painted',
    targetMs: TARGETS.uiFirstPageMs,
    record: (run) => run.list,
    mark: 'firstPage',
    painted: true,
  },
  // The target is the strict reading: all 10,000 children in the tree, not only the first page.
  {
    id: 'ui-expand',
    title: 'expand 10,000-child node, all children painted',
    targetMs: TARGETS.uiExpandMs,
    record: (run) => run.expand,
    mark: 'allLoaded',
    painted: true,
  },
  { id: 'ui-expand-first-rows', title: 'expand: first child rows painted', record: (run) => run.expand, mark: 'firstChild', painted: true },
];

export function uiRunCount(env: NodeJS.ProcessEnv = process.env): number {
  const runs = Number(env.BENCH_UI_RUNS ?? 10);
  return Number.isInteger(runs) && runs > 0 && runs <= 100 ? runs : 10;
}

/** Each run's figures plus the API alone for the same requests, replayed right after it. */
async function collect(runs: UiRun[], replayer: ApiReplayer): Promise<UiFigure[]> {
  const samples = new Map(SOURCES.map((source) => [source.id, { ms: [] as number[], api: [] as number[] }]));
  for (const run of runs) {
    for (const source of SOURCES) {
      const sample = sampleOf(source, run);
      if (!sample) continue;
      samples.get(source.id)?.ms.push(sample.ms);
      samples.get(source.id)?.api.push(await replayer.replay(waves(sample.requests)));
    }
  }
  return SOURCES.filter((source) => (samples.get(source.id)?.ms.length ?? 0) > 0).map((source) => {
    const { ms, api } = samples.get(source.id) ?? { ms: [], api: [] };
    return summariseFigure(source, ms, api);
  });
}

/** The list painted after the click must be the clicked site's: its first row is read back from the API. */
async function checkListRow(replayer: ApiReplayer, run: UiRun, sitePath: string): Promise<void> {
  if (!run.list) return;
  if (!run.listFirstPkid) throw new Error('the list painted no row with a data-pkid');
  const instance = (await replayer.getJson(`/api/${LINE_MODEL}/${run.listFirstPkid}/`)) as { meta?: { hierarchy?: string } };
  const at = instance.meta?.hierarchy;
  if (at !== sitePath) throw new Error(`the list painted after clicking ${sitePath} shows a line of ${at}`);
}

interface UiSetup {
  origin: string;
  wideNode: WideNode;
  replayer: ApiReplayer;
  context: BrowserContext;
}

/** The wide node, the renderer, the service serving it, Chromium and a session; each stopped by `close`. */
async function setUp(store: SeededStore, config: BenchConfig, cleanup: CleanupStack): Promise<UiSetup & { close(): Promise<void> }> {
  const wideNode = seedWideNode(store.file, WIDE_CHILDREN);
  log(
    `UI: ${WIDE_CHILDREN.toLocaleString('en-US')} child nodes under ${wideNode.path} in ${wideNode.seconds.toFixed(1)} s; building the renderer...`,
  );
  const dataDir = join(store.file, '..', '..');
  const web = await rendererFolder(dataDir, cleanup);
  const cli = join(__dirname, '..', '..', 'main', 'cli.js');
  const env = { ...process.env, WORKSTATION_ADMIN_PASSWORD: config.adminPassword };
  const server = await startChildServer(
    'workstation (UI)',
    [cli, 'serve', '--port', '0', '--data', dataDir, '--static', web],
    env,
    cleanup,
  );
  const browser = await launchBrowser(cleanup);
  const cookie = await signIn(server.origin, config.adminPassword);
  const replayer = new ApiReplayer(server.origin, cookie);
  const context = await benchContext(browser, server.origin, cookie);
  const close = async (): Promise<void> => {
    await replayer.close();
    await browser.close();
    await server.stop();
  };
  return { origin: server.origin, wideNode, replayer, context, close };
}

/** The warm-up and the counted runs, each on a fresh page; a failed run is noted and the others go on. */
async function runAll(
  store: SeededStore,
  setup: UiSetup,
  runs: number,
  warmups: number,
): Promise<{ measured: UiRun[]; failures: string[] }> {
  const sitePaths = store.sites.map((site) => `${store.customerPath}.${site.name}`);
  const measured: UiRun[] = [];
  const failures: string[] = [];
  for (let index = 0; index < warmups + runs; index += 1) {
    // The warm-up lists the last site; the counted runs go round the sites from the first.
    const sitePath = sitePaths[(index - warmups + sitePaths.length) % sitePaths.length];
    const plan: UiRunPlan = { customerPath: store.customerPath, sitePath, widePath: setup.wideNode.path, wideChildren: WIDE_CHILDREN };
    const label = index < warmups ? 'warm-up' : `run ${index - warmups + 1}/${runs}`;
    log(`UI ${label}: ${sitePath}, ${setup.wideNode.path}`);
    try {
      const run = await measureRun(setup.context, setup.origin, plan);
      await checkListRow(setup.replayer, run, sitePath);
      if (index >= warmups) measured.push(run);
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { measured, failures };
}

/**
 * The UI bench: the wide node is added to the seeded store, the current renderer built and
 * served by the service, and each run opens a fresh page in headless Chromium: start to ready,
 * a site's first list page, the wide node's expand. The first `warmups` runs are not counted
 * (they fill the server's and the browser's caches, as an engineer's first minute does). A
 * failure to set up (a renderer that does not build) is reported as a failed check, so the
 * load scenarios' figures are still printed.
 */
export async function uiScenarios(store: SeededStore, config: BenchConfig, cleanup: CleanupStack): Promise<UiOutcome> {
  const runs = uiRunCount();
  const warmups = 1;
  const sitePaths = store.sites.map((site) => `${store.customerPath}.${site.name}`);
  let setup: (UiSetup & { close(): Promise<void> }) | undefined;
  try {
    setup = await setUp(store, config, cleanup);
    const { measured, failures } = await runAll(store, setup, runs, warmups);
    const figures = await collect(measured, setup.replayer);
    const listSkipped = measured.find((run) => run.listSkipped)?.listSkipped;
    return { runs, warmups, wideNode: setup.wideNode, sitePaths, figures, listSkipped, failures };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    log(`UI bench failed: ${why}`);
    return { runs, warmups, wideNode: setup?.wideNode, sitePaths, figures: [], failures: [`set-up: ${why}`] };
  } finally {
    await setup?.close();
  }
}

/** A target per figure that has one (a missing figure fails), and no failed run. */
export function uiChecks(outcome: UiOutcome): Check[] {
  const checks: Check[] = SOURCES.filter((source) => source.targetMs !== undefined).map((source) => {
    const figure = outcome.figures.find((entry) => entry.id === source.id);
    const target = `median < ${source.targetMs} ms`;
    if (!figure) {
      const why = source.id === 'ui-first-page' && outcome.listSkipped ? `not measured: ${outcome.listSkipped}` : 'not measured';
      return { subject: `UI ${source.title}`, target, measured: why, pass: false };
    }
    return {
      subject: `UI ${source.title}`,
      target,
      measured: `${figure.medianMs.toFixed(0)} ms`,
      pass: figure.medianMs < (source.targetMs ?? 0),
    };
  });
  checks.push({
    subject: 'UI runs',
    target: 'no failed run',
    measured: `${outcome.failures.length} failed`,
    pass: outcome.failures.length === 0,
  });
  return checks;
}

/** BENCH_ONLY=ui: the seed and the UI bench, no load scenario (the list plan is still printed). */
export function uiOnlyOutcome(store: SeededStore, ui: UiOutcome): FullOutcome {
  const checks = [seedCheck(store.rows, store.timing.totalSeconds), ...uiChecks(ui)];
  const listPlan = explainList(store.file, store.customerPath, blockPrefix(0));
  return { rows: store.rows, seed: store.timing, baselines: [], scenarios: [], checks, listPlan, searchPlans: [], prefixes: [], ui };
}
