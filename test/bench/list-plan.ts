import { openDatabase } from '../../main/service/store/db';
import { listQuery } from './list-query';
import { listSqlFor } from './raw-sql-baseline';

export interface ListPlan {
  pageSql: string;
  page: string[];
  count: string[];
}

/** EXPLAIN QUERY PLAN of the list's page and count, so a slow run shows which indexes it used. */
export function explainList(file: string, customerPath: string, prefix: string): ListPlan {
  const db = openDatabase(file);
  try {
    const list = listSqlFor(db, listQuery(customerPath, prefix));
    const plan = (sql: string, params: unknown[]): string[] =>
      db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((row) => row.detail);
    return { pageSql: list.page.sql, page: plan(list.page.sql, list.page.params), count: plan(list.count.sql, list.count.params) };
  } finally {
    db.close();
  }
}
