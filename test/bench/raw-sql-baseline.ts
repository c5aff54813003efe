import { performance } from 'node:perf_hooks';
import { instanceSource } from '../../main/service/list/instance-source';
import { parseListParams } from '../../main/service/list/list-params';
import { buildListSql } from '../../main/service/list/list-sql';
import { requireModel } from '../../main/service/models/registry';
import { openDatabase, type Db } from '../../main/service/store/db';
import { NodesRepo, traversalScope } from '../../main/service/store/nodes-repo';
import { summarise, type LatencySummary } from './latency-stats';
import { LINE_MODEL, listQuery } from './list-query';

export interface PreparedList {
  prefix: string;
  page: { sql: string; params: unknown[] };
  count: { sql: string; params: unknown[] };
}

/** The page and count SQL the list route builds for this request, through the route's own builders. */
export function listSqlFor(db: Db, customerPath: string, prefix: string): PreparedList {
  const model = requireModel(LINE_MODEL);
  const node = new NodesRepo(db).getByPath(customerPath);
  if (!node) throw new Error(`the seeded store has no node ${customerPath}`);
  const params = parseListParams(model, listQuery(customerPath, prefix), undefined);
  const sql = buildListSql(instanceSource(model, params.summary), params, traversalScope(params.traversal, node), 'i.hierarchy_pkid');
  return { prefix, page: { sql: sql.page, params: sql.pageParams }, count: { sql: sql.count, params: sql.countParams } };
}

/**
 * The ceiling for the list scenario: page + count in a loop on one better-sqlite3 connection
 * (the service has one too), rotating the same prefixes. No HTTP, no JSON, no authentication.
 */
export function measureRawListSql(file: string, customerPath: string, prefixes: string[], warmupSeconds: number, seconds: number): LatencySummary {
  const db = openDatabase(file);
  try {
    const lists = prefixes.map((prefix) => listSqlFor(db, customerPath, prefix));
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
