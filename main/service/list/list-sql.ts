import type { Filter, ListParams } from './list-params';

/**
 * Where a list reads from. Column expressions come from the model registry or from fixed
 * column maps, never from a request; values always travel as parameters.
 */
export interface ListSource {
  /** `FROM` target with its alias. */
  from: string;
  /** Conditions every row must meet (model type, parent id...), with their parameters. */
  where: string[];
  params: unknown[];
  /** The value of a summary field, as stored. */
  valueExpr(field: string): string;
  /** The case-folded value used for sorting and case-insensitive matching (indexed). */
  foldedExpr(field: string): string;
  /** Tie-breaker column that keeps paging stable. */
  idColumn: string;
  /** What a page selects. */
  columns: string;
  /** Pages in row order (the id column alone), as a list asked without `order_by` may be (a parent's sub-transactions). */
  rowOrder?: boolean;
}

export interface ListSql {
  page: string;
  pageParams: unknown[];
  count: string;
  countParams: unknown[];
}

/** SQLite's lower() folds ASCII only, so parameters are folded the same way. */
export const foldAscii = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The highest code point: `prefix || MAX` bounds every string that starts with `prefix`. */
const MAX_CHAR = '\u{10FFFF}';

function filterClause(source: ListSource, filter: Filter): { sql: string; params: unknown[] } {
  const folded = source.foldedExpr(filter.field);
  const raw = source.valueExpr(filter.field);
  const text = filter.ignoreCase ? foldAscii(filter.text) : filter.text;
  const target = filter.ignoreCase ? folded : raw;
  switch (filter.condition) {
    case 'startswith': {
      // A range on the folded expression uses its index; the exact check follows for case.
      const prefix = foldAscii(filter.text);
      const sql = `${folded} >= ? AND ${folded} < ?`;
      if (filter.ignoreCase) return { sql, params: [prefix, prefix + MAX_CHAR] };
      return { sql: `${sql} AND substr(${raw}, 1, ?) = ?`, params: [prefix, prefix + MAX_CHAR, text.length, text] };
    }
    case 'endswith':
      return text === '' ? { sql: '1', params: [] } : { sql: `substr(${target}, ?) = ?`, params: [-text.length, text] };
    case 'equals':
      if (filter.ignoreCase) return { sql: `${folded} = ?`, params: [text] };
      return { sql: `${folded} = ? AND ${raw} = ?`, params: [foldAscii(text), text] };
    case 'contains':
      return { sql: `instr(${target}, ?) > 0`, params: [text] };
  }
}

/** A scope's node pkids as a table: a local scope is one bound pkid ('?'), which needs a SELECT. */
export function scopeNodes(scope: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
  return { sql: scope.sql === '?' ? 'SELECT ? AS pkid' : scope.sql, params: scope.params };
}

/**
 * A list's page and count. `drive` picks the plan (scope-plan.ts): 'index' reads the source in
 * its order and keeps the rows whose hierarchy is in the scope; 'nodes' starts from the scope's
 * nodes and reads their rows by the (model, node) index, then sorts them.
 */
export function buildListSql(
  source: ListSource,
  params: ListParams,
  scope: { sql: string; params: unknown[] } | null,
  hierarchyColumn: string | null,
  drive: 'index' | 'nodes' = 'index',
): ListSql {
  const byNodes = drive === 'nodes' && scope !== null && hierarchyColumn !== null;
  const where = [...source.where];
  // Parameters in the order of their placeholders: the FROM's subquery comes first.
  const whereParams = byNodes ? [...scope.params, ...source.params] : [...source.params];
  let from = source.from;
  if (byNodes) {
    // CROSS JOIN keeps the nodes as the outer loop: SQLite never reorders it.
    from = `(${scopeNodes(scope).sql}) AS sn CROSS JOIN ${source.from}`;
    where.push(`${hierarchyColumn} = sn.pkid`);
  } else if (scope && hierarchyColumn) {
    where.push(`${hierarchyColumn} IN (${scope.sql})`);
    whereParams.push(...scope.params);
  }
  for (const filter of params.filters) {
    const clause = filterClause(source, filter);
    where.push(clause.sql);
    whereParams.push(...clause.params);
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const direction = params.direction === 'desc' ? 'DESC' : 'ASC';
  const order = source.rowOrder
    ? `ORDER BY ${source.idColumn} ${direction}`
    : `ORDER BY ${source.foldedExpr(params.orderBy)} ${direction}, ${source.idColumn} ${direction}`;
  return {
    page: `SELECT ${source.columns} FROM ${from} ${whereSql} ${order} LIMIT ? OFFSET ?`,
    pageParams: [...whereParams, params.limit, params.skip],
    count: `SELECT count(*) AS total FROM ${from} ${whereSql}`,
    countParams: whereParams,
  };
}
