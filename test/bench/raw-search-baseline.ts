import { performance } from 'node:perf_hooks';
import { searchSql, type CompiledSearch } from '../../main/service/search/search-compiler';
import { directionScope } from '../../main/service/search/search-scope';
import { openDatabase } from '../../main/service/store/db';
import { summarise, type LatencySummary } from './latency-stats';

/**
 * A plan of a single model's search (main/service/list/scope-plan.ts): 'index' walks the summary index,
 * 'nodes' starts from the scope's nodes. The service's probe picks one per scope.
 */
export type SearchPlan = 'index' | 'nodes';

/** The SQL the search route runs for these queries from a node down, through its own compiler. */
export function compiledSearches(path: string, queries: string[], plan: SearchPlan = 'index'): CompiledSearch[] {
  return queries.map((query) => {
    const plans = searchSql(query, directionScope('down', path));
    if (plan === 'index') return plans;
    if (!plans.narrow) throw new Error(`${query} has no plan from its scope's nodes`);
    return plans.narrow.search;
  });
}

/**
 * The ceiling for a search scenario: the search's own statement in a loop on one
 * better-sqlite3 connection, rotating the same queries. No HTTP, no JSON, no authentication.
 */
export function measureRawSearchSql(
  file: string,
  path: string,
  queries: string[],
  plan: SearchPlan,
  warmupSeconds: number,
  seconds: number,
): LatencySummary {
  const db = openDatabase(file);
  try {
    const statements = compiledSearches(path, queries, plan).map((compiled) => ({ compiled, statement: db.prepare(compiled.sql) }));
    const latencies: number[] = [];
    const from = performance.now() + warmupSeconds * 1000;
    const end = from + seconds * 1000;
    for (let iteration = 0; performance.now() < end; iteration += 1) {
      const { compiled, statement } = statements[iteration % statements.length];
      const began = performance.now();
      statement.all(...compiled.params);
      if (began >= from) latencies.push(performance.now() - began);
    }
    return summarise(latencies, seconds);
  } finally {
    db.close();
  }
}

/** EXPLAIN QUERY PLAN of a search, so a slow run shows which index it walked. */
export function explainSearch(file: string, path: string, query: string, plan: SearchPlan): string[] {
  const db = openDatabase(file);
  try {
    const [compiled] = compiledSearches(path, [query], plan);
    return db
      .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql}`)
      .all(...compiled.params)
      .map((row) => row.detail);
  } finally {
    db.close();
  }
}
