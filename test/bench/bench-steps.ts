import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, type BenchConfig } from './bench-config';
import type { BenchOutcome } from './bench-report';
import { baselineCheck, scenarioChecks, seedCheck, type Baseline, type Scenario } from './bench-targets';
import { startChildServer, type ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { blockPrefix, rowsPerPrefix } from './line-patterns';
import { explainList, type ListPlan } from './list-plan';
import { instancePath, listPath, listPathOf, listQuery, siteListQuery } from './list-query';
import { measureHttp } from './measure-http';
import { measureRawListSql } from './raw-sql-baseline';
import { checkList, checkService } from './sanity-check';
import { searchBaselines, searchScenarios, type SearchBaselines, type SearchPlanText } from './search-steps';
import { coldPkids, seedLines, SMALL_SITE_LINES, type SeededStore } from './seed-lines';
import { uiChecks, uiOnlyOutcome, uiScenarios } from './ui-steps';

const GET_CLIENTS = 32;
/** More distinct instances than the cold scenario can read in its window, so none is read twice. */
const COLD_READS = 150_000;
const LIST_CLIENTS = [8, 32];
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

export interface FullOutcome extends BenchOutcome {
  listPlan: ListPlan;
  searchPlans: SearchPlanText[];
  prefixes: string[];
}

async function seed(config: BenchConfig, cleanup: CleanupStack): Promise<SeededStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'workstation-bench-'));
  cleanup.push('remove the temp store', () => rmSync(dataDir, { recursive: true, force: true }));
  log(`seeding ${config.rows.toLocaleString('en-US')} LineRelation instances in ${dataDir}...`);
  const store = await seedLines(dataDir, config);
  log(`seeded in ${store.timing.totalSeconds.toFixed(1)} s`);
  return store;
}

function rawSqlBaseline(store: SeededStore, prefixes: string[], config: BenchConfig): Baseline {
  log(`raw SQL page + count, ${config.warmupSeconds} s warm-up + ${config.seconds} s...`);
  const queries = prefixes.map((prefix) => listQuery(store.customerPath, prefix));
  const summary = measureRawListSql(store.file, queries, 'index', config.warmupSeconds, config.seconds);
  return { id: 'raw-sql', title: 'raw SQL page+count', clients: 1, summary, errors: 0 };
}

const SMALL_SITE_LIST = 'list at a 132-line site, 50 + total';

/**
 * The small site's list (for scale, no target): its page and count in the plan the service
 * chooses there (from the site's node), and in the one it does not (walking the whole index).
 */
function smallSiteListBaselines(store: SeededStore, config: BenchConfig): { chosen: Baseline; notChosen: Baseline } {
  const measure = (drive: 'index' | 'nodes', title: string): Baseline => {
    log(`raw SQL ${title}, ${config.warmupSeconds} s warm-up + ${config.seconds} s...`);
    const summary = measureRawListSql(store.file, [siteListQuery(store.smallSite.path)], drive, config.warmupSeconds, config.seconds);
    return { id: 'raw-sql', title: `raw SQL ${title}`, clients: 1, summary, errors: 0 };
  };
  return { chosen: measure('nodes', SMALL_SITE_LIST), notChosen: measure('index', `${SMALL_SITE_LIST}, index walk (not chosen)`) };
}

async function rawHttpBaseline(paths: string[], authorization: string, config: BenchConfig, cleanup: CleanupStack): Promise<Baseline> {
  const server = await startChildServer('raw node:http', [join(__dirname, 'raw-json-server.js')], process.env, cleanup);
  try {
    const http = await measureHttp(server, paths, authorization, GET_CLIENTS, config, cleanup);
    return {
      id: 'raw-http',
      title: 'raw node:http 1 KB JSON',
      clients: GET_CLIENTS,
      summary: http.result,
      errors: http.result.errors,
      http,
    };
  } finally {
    await server.stop();
  }
}

/** The service on the seeded store, in its own process, as `npm run serve` starts it. */
function startService(store: SeededStore, config: BenchConfig, cleanup: CleanupStack): Promise<ChildServer> {
  const cli = join(__dirname, '..', '..', 'main', 'cli.js');
  const env = { ...process.env, WORKSTATION_ADMIN_PASSWORD: config.adminPassword };
  const dataDir = join(store.file, '..', '..');
  return startChildServer('workstation', [cli, 'serve', '--port', '0', '--data', dataDir], env, cleanup);
}

async function serviceScenarios(
  store: SeededStore,
  prefixes: string[],
  baselines: { http: Baseline; sql: Baseline; smallSiteList: Baseline; searches: SearchBaselines },
  config: BenchConfig,
  cleanup: CleanupStack,
): Promise<Scenario[]> {
  const server = await startService(store, config, cleanup);
  try {
    const authorization = basicAuth(config.adminPassword);
    await checkService(server.origin, authorization, store.samplePkids[0], store.customerPath, prefixes[0], rowsPerPrefix(store.rows, 0));
    const scenarios: Scenario[] = [];
    // First reads, before anything is cached: every request names an instance not read before.
    const cold = await measureHttp(server, coldPkids(store, COLD_READS).map(instancePath), authorization, GET_CLIENTS, config, cleanup);
    scenarios.push({
      id: 'instance-get-cold',
      title: 'instance GET, each read once',
      clients: GET_CLIENTS,
      ...cold,
      baseline: baselines.http,
      informational: true,
    });
    const get = await measureHttp(server, store.samplePkids.map(instancePath), authorization, GET_CLIENTS, config, cleanup);
    scenarios.push({ id: 'instance-get', title: 'instance GET', clients: GET_CLIENTS, ...get, baseline: baselines.http });
    const listPaths = prefixes.map((prefix) => listPath(store.customerPath, prefix));
    for (const clients of LIST_CLIENTS) {
      const list = await measureHttp(server, listPaths, authorization, clients, config, cleanup);
      scenarios.push({ id: `list-${clients}`, title: 'list startswith 0.1%, 50 + total', clients, ...list, baseline: baselines.sql });
    }
    const smallPath = listPathOf(siteListQuery(store.smallSite.path));
    await checkList(server.origin, authorization, smallPath, SMALL_SITE_LINES);
    const small = await measureHttp(server, [smallPath], authorization, LIST_CLIENTS[0], config, cleanup);
    scenarios.push({
      id: 'list-small-site',
      title: SMALL_SITE_LIST,
      clients: LIST_CLIENTS[0],
      ...small,
      baseline: baselines.smallSiteList,
      informational: true,
    });
    scenarios.push(...(await searchScenarios(server, store, authorization, baselines.searches, config, cleanup)));
    return scenarios;
  } finally {
    await server.stop();
  }
}

/**
 * BENCH_ONLY=search: the seed, then the searches beside their raw SQL, nothing else. For
 * working on search, whose figures need the full 1M rows but not the other scenarios' minutes.
 */
async function searchOnly(store: SeededStore, config: BenchConfig, cleanup: CleanupStack): Promise<FullOutcome> {
  const searches = searchBaselines(store, config);
  const server = await startService(store, config, cleanup);
  let scenarios: Scenario[];
  try {
    scenarios = await searchScenarios(server, store, basicAuth(config.adminPassword), searches, config, cleanup);
  } finally {
    await server.stop();
  }
  const checks = [seedCheck(store.rows, store.timing.totalSeconds), ...scenarios.flatMap(scenarioChecks)];
  const listPlan = explainList(store.file, store.customerPath, blockPrefix(0));
  return {
    rows: store.rows,
    seed: store.timing,
    baselines: [...searches.baselines.values(), ...searches.notChosen],
    scenarios,
    checks,
    listPlan,
    searchPlans: searches.plans,
    prefixes: [],
  };
}

/** Seeds, measures the baselines and the service scenarios (instance GET, list, search), and checks the targets. */
function meanBaseline(before: Baseline, after: Baseline): Baseline {
  const perSecond = (before.summary.perSecond + after.summary.perSecond) / 2;
  log(`raw node:http: ${Math.round(before.summary.perSecond)}/s before, ${Math.round(after.summary.perSecond)}/s after the service`);
  return {
    ...before,
    title: 'raw node:http 1 KB JSON (mean of before and after)',
    summary: { ...before.summary, perSecond, count: before.summary.count + after.summary.count },
    errors: before.errors + after.errors,
  };
}

export async function runBench(config: BenchConfig, cleanup: CleanupStack): Promise<FullOutcome> {
  const store = await seed(config, cleanup);
  if (config.only === 'ui') return uiOnlyOutcome(store, await uiScenarios(store, config, cleanup));
  if (config.only === 'search') return searchOnly(store, config, cleanup);
  const residues = Array.from({ length: config.listPrefixes }, (_, index) => index);
  const prefixes = residues.map(blockPrefix);
  const listPlan = explainList(store.file, store.customerPath, prefixes[0]);
  const sql = rawSqlBaseline(store, prefixes, config);
  const smallSiteList = smallSiteListBaselines(store, config);
  const searches = searchBaselines(store, config);
  const paths = store.samplePkids.map(instancePath);
  const before = await rawHttpBaseline(paths, basicAuth(config.adminPassword), config, cleanup);
  const measured = await serviceScenarios(
    store,
    prefixes,
    { http: before, sql, smallSiteList: smallSiteList.chosen, searches },
    config,
    cleanup,
  );
  // This VM's throughput drifts between minutes: the raw baseline is measured before and after
  // the service and the ratio taken against their mean, so one lucky or unlucky minute counts less.
  const after = await rawHttpBaseline(paths, basicAuth(config.adminPassword), config, cleanup);
  const http = meanBaseline(before, after);
  const scenarios = measured.map((scenario) => (scenario.baseline.id === 'raw-http' ? { ...scenario, baseline: http } : scenario));
  // After the load scenarios: the UI bench adds the wide node to the store, which they must not see.
  const ui = config.only === 'load' ? undefined : await uiScenarios(store, config, cleanup);
  const checks = [
    seedCheck(store.rows, store.timing.totalSeconds),
    baselineCheck(http),
    ...scenarios.flatMap(scenarioChecks),
    ...(ui ? uiChecks(ui) : []),
  ];
  const baselines = [http, sql, smallSiteList.chosen, smallSiteList.notChosen, ...searches.baselines.values(), ...searches.notChosen];
  return { rows: store.rows, seed: store.timing, baselines, scenarios, checks, listPlan, searchPlans: searches.plans, prefixes, ui };
}
