import { performance } from 'node:perf_hooks';
import { instanceSource } from '../../main/service/list/instance-source';
import { parseListParams } from '../../main/service/list/list-params';
import { buildListSql } from '../../main/service/list/list-sql';
import { requireModel } from '../../main/service/models/registry';
import { openDatabase, type Db } from '../../main/service/store/db';
import { NodesRepo, traversalScope } from '../../main/service/store/nodes-repo';
import { summarise, type LatencySummary } from './latency-stats';
import { LINE_MODEL } from './list-query';

export interface PreparedList {
  page: { sql: string; params: unknown[] };
  count: { sql: string; params: unknown[] };
}

/**
 * The page and count SQL the list route builds for this request, through the route's own
 * builders, in the plan given (the route's probe picks it: list/scope-plan.ts).
 */
export function listSqlFor(db: Db, query: URLSearchParams, drive: 'index' | 'nodes' = 'index'): PreparedList {
  const model = requireModel(LINE_MODEL);
  const path = query.get('hierarchy') ?? '';
  const node = new NodesRepo(db).getByPath(path);
  if (!node) throw new Error(`the seeded store has no node ${path}`);
  const params = parseListParams(model, query, undefined);
  const sql = buildListSql(
    instanceSource(model, params.summary),
    params,
    traversalScope(params.traversal, node),
    'i.hierarchy_pkid',
    drive,
  );
  return { page: { sql: sql.page, params: sql.pageParams }, count: { sql: sql.count, params: sql.countParams } };
}

/**
 * The ceiling for the list scenario: page + count in a loop on one better-sqlite3 connection
 * (the service has one too), rotating the same queries. No HTTP, no JSON, no authentication.
 */
export function measureRawListSql(
  file: string,
  queries: URLSearchParams[],
  drive: 'index' | 'nodes',
  warmupSeconds: number,
  seconds: number,
): LatencySummary {
  const db = openDatabase(file);
  try {
    const lists = queries.map((query) => listSqlFor(db, query, drive));
    const statements = lists.map((list) => ({ list, page: db.prepare(list.page.sql), count: db.prepare(list.count.sql) }));
    const latencies: number[] = [];
    const started = performance.now();
    const from = started + warmupSeconds * 1000;
    const end = from + seconds * 1000;
    for (let iteration = 0; performance.now() < end; iteration += 1) {
      const { list, page, count } = statements[iteration % statements.length];
      const began = performance.now();
      page.all(...list.page.params);
      count.get(...list.count.params);
      if (began >= from) latencies.push(performance.now() - began);
    }
    return summarise(latencies, seconds);
  } finally {
    db.close();
  }
}
