import { request } from 'undici';
import type { BenchConfig } from './bench-config';
import { TARGETS, type Baseline, type Scenario } from './bench-targets';
import type { ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { lineFields, rowsPerPrefix } from './line-patterns';
import { measureHttp } from './measure-http';
import { explainSearch, measureRawSearchSql, type SearchPlan } from './raw-search-baseline';
import { searchKinds, searchPath, type SearchKind } from './search-query';
import { SMALL_SITE_LINES, type SeededStore } from './seed-lines';

const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

export interface SearchPlanText {
  query: string;
  plan: string[];
}

export interface SearchBaselines {
  kinds: SearchKind[];
  baselines: Map<SearchKind['id'], Baseline>;
  /** The small site's search by the plan the service does not choose there, for scale. */
  notChosen: Baseline[];
  plans: SearchPlanText[];
}

const pathOf = (store: SeededStore, kind: SearchKind): string => (kind.at === 'customer' ? store.customerPath : store.smallSite.path);
/** The plan the service's probe chooses: the index walk for the customer, the nodes for the small site. */
const planOf = (kind: SearchKind): SearchPlan => (kind.at === 'customer' ? 'index' : 'nodes');

/** Each search's own compiled SQL in a loop: the raw SQL baseline its scenario is printed beside. */
export function searchBaselines(store: SeededStore, config: BenchConfig): SearchBaselines {
  const kinds = searchKinds(config.listPrefixes);
  const baselines = new Map<SearchKind['id'], Baseline>();
  const notChosen: Baseline[] = [];
  const raw = (kind: SearchKind, plan: SearchPlan, title: string): Baseline => {
    log(`raw SQL ${title}, ${config.warmupSeconds} s warm-up + ${config.seconds} s...`);
    const summary = measureRawSearchSql(store.file, pathOf(store, kind), kind.queries, plan, config.warmupSeconds, config.seconds);
    return { id: 'raw-sql-search', title: `raw SQL ${title}`, clients: 1, summary, errors: 0 };
  };
  for (const kind of kinds) {
    baselines.set(kind.id, raw(kind, planOf(kind), kind.title));
    // What a search at a small site cost before the probe chose its plan: the whole index walked.
    if (kind.at === 'small site') notChosen.push(raw(kind, 'index', `${kind.title}, index walk (not chosen)`));
  }
  const plans = kinds.map((kind) => ({
    query: `${kind.queries[0]}' at '${pathOf(store, kind)}`,
    plan: explainSearch(store.file, pathOf(store, kind), kind.queries[0], planOf(kind)),
  }));
  return { kinds, baselines, notChosen, plans };
}

/** How many hits the first query of a kind has in the seeded lines (capped at the 1,000 a search returns). */
function expectedHits(kind: SearchKind, rows: number): number {
  if (kind.id === 'search-startswith') return Math.min(1000, rowsPerPrefix(rows, 0));
  // The small site's lines come after the customer's (seed-lines.ts).
  const [from, to] = kind.at === 'customer' ? [0, rows] : [rows, rows + SMALL_SITE_LINES];
  let hits = 0;
  for (let index = from; index < to && hits < 1000; index += 1) {
    if (kind.matches(kind.queries[0], lineFields(index, 'Site'))) hits += 1;
  }
  return hits;
}

interface SearchBody {
  pagination?: { total?: number };
  meta?: { actions?: { export?: { href?: string } } };
  resources?: { data: { pattern?: string; alertingName?: string } }[];
}

/** Before timing, proves each search answers what was seeded: the count, the matches, the order. */
async function checkSearch(origin: string, authorization: string, store: SeededStore, kind: SearchKind): Promise<void> {
  const response = await request(`${origin}${searchPath(pathOf(store, kind), kind.queries[0])}`, { headers: { authorization } });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${kind.title} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as SearchBody;
  const hits = body.resources ?? [];
  const expected = expectedHits(kind, store.rows);
  const patterns = hits.map((hit) => hit.data.pattern ?? '');
  const problems = [
    hits.length !== expected || body.pagination?.total !== expected
      ? `${hits.length} hits (total ${body.pagination?.total}) instead of ${expected}`
      : '',
    hits.some((hit) => !kind.matches(kind.queries[0], hit.data)) ? 'a hit that does not match' : '',
    patterns.some((pattern, index) => index > 0 && pattern < patterns[index - 1]) ? 'hits out of pattern order' : '',
    body.meta?.actions?.export?.href ? '' : 'no export action in meta',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`${kind.title} is not what was seeded: ${problems.join(', ')}`);
}

/** The search scenarios over HTTP, at the clients of the target, each beside its raw SQL. */
export async function searchScenarios(
  server: ChildServer,
  store: SeededStore,
  authorization: string,
  searches: SearchBaselines,
  config: BenchConfig,
  cleanup: CleanupStack,
): Promise<Scenario[]> {
  const scenarios: Scenario[] = [];
  for (const kind of searches.kinds) {
    await checkSearch(server.origin, authorization, store, kind);
    const baseline = searches.baselines.get(kind.id);
    if (!baseline) throw new Error(`no raw SQL baseline for ${kind.id}`);
    const paths = kind.queries.map((query) => searchPath(pathOf(store, kind), query));
    const measured = await measureHttp(server, paths, authorization, TARGETS.searchP99Clients, config, cleanup);
    // The target is for the customer's searches; the small site's is shown for scale.
    const informational = kind.at !== 'customer';
    scenarios.push({ id: kind.id, title: kind.title, clients: TARGETS.searchP99Clients, ...measured, baseline, informational });
  }
  return scenarios;
}
