import type { ApiResponse } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { badParameter, MethodNotAllowed, notFound } from '../errors';
import { parseListParams } from '../list/list-params';
import { buildListSql, type ListSource } from '../list/list-sql';
import type { ModelDef } from '../models/types';
import { traversalScope } from '../store/nodes-repo';
import type { TxRow } from '../store/transactions-repo';
import { header, type RequestContext, readsUp } from '../request-context';
import { json } from '../responses';
import type { RouteDeps } from './deps';
import { assertPathReach, assertRole } from '../auth/access';
import { guardNode } from '../domain/guards';
import { listResponse } from './resource-list';
import { transactionHref } from './transaction-answer';
import { logEntry, transactionData, transactionMeta, transactionSummary } from './transaction-view';

/** Summary attributes of tool/Transaction are plain columns of the transactions table. */
const COLUMNS: Record<string, string> = {
  transaction_id: 't.transaction_id',
  action: 't.action',
  status: 't.status',
  detail: 't.detail',
  model_type: 't.model_type',
  username: 't.username',
  submitted_time: 't.submitted_time',
};

function transactionSource(ctx: RequestContext): ListSource {
  const where: string[] = [];
  const params: unknown[] = [];
  const parent = ctx.query.get('parent_id');
  if (parent) {
    where.push('t.parent_id = ?');
    params.push(parent);
  } else {
    where.push('t.parent_id IS NULL');
  }
  const id = ctx.query.get('transaction_id');
  if (id) {
    where.push('t.transaction_id = ?');
    params.push(id);
  }
  const column = (field: string): string => {
    const sql = COLUMNS[field];
    if (!sql) throw badParameter(`${field} is not a transaction summary attribute.`);
    return sql;
  };
  return {
    // A parent's sub-transactions by the (parent_id, id, hierarchy_pkid) index: a page at any
    // depth and the count read the index alone, in row order (migration 0022).
    from: parent ? 'transactions t INDEXED BY transactions_parent' : 'transactions t',
    where,
    params,
    valueExpr: column,
    foldedExpr: (field) => `lower(${column(field)})`,
    idColumn: 't.id',
    columns: 't.*',
    // decisions.md: a parent's sub-transactions page in row order. Sorted by submitted_time
    // instead, a page of a 100,000-row load's sorted them all: 50 ms at skip 0, 285 ms deep.
    rowOrder: parent !== null && parent !== '' && !ctx.query.get('order_by'),
  };
}

function requireTransaction(deps: RouteDeps, id: string): TxRow {
  const row = deps.store.transactions.get(id);
  if (!row) throw notFound(`Transaction ${id} was not found.`);
  return row;
}

export function routeTransactions(deps: RouteDeps, ctx: RequestContext, model: ModelDef, rest: string[]): ApiResponse {
  if (ctx.method !== 'GET') {
    throw new MethodNotAllowed('Transactions are read-only: use GET.', ['GET']);
  }
  const [id, sub] = rest;
  if (id === undefined) return listTransactions(deps, ctx, model);
  if (id === 'help') throw notFound('Use /api/tool/Transaction/help/ through the generic help route.');
  const row = requireTransaction(deps, id);
  assertRole(ctx.principal, 'read');
  assertPathReach(ctx.principal, ctx.callerPath, row.hierarchy_path, { readUp: readsUp(ctx) });
  if (sub === undefined) return json(200, { data: transactionData(deps.store, row), meta: transactionMeta(row) });
  if (sub === 'poll' && rest.length === 2) {
    return json(200, { [id]: { status: row.status, href: transactionHref(id), description: row.detail } });
  }
  if (sub === 'log' && rest.length === 2) {
    const logId = ctx.query.get('log_id');
    if (!logId || !/^\d+$/.test(logId)) throw badParameter('log_id must be the number of a log entry.', 'log_id');
    const entry = deps.store.transactions.logEntry(id, Number(logId));
    if (!entry) throw notFound(`Log entry ${logId} of transaction ${id} was not found.`);
    return json(200, { data: logEntry(entry), meta: transactionMeta(row) });
  }
  throw notFound(`No such transaction resource: ${ctx.path}`);
}

function listTransactions(deps: RouteDeps, ctx: RequestContext, model: ModelDef): ApiResponse {
  // Parameters before the node, as for instance lists (resource-list.ts says why).
  const params = parseListParams(model, ctx.query, header(ctx, 'range'));
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'read', params.traversal === 'up');
  const source = transactionSource(ctx);
  const sql = buildListSql(source, params, traversalScope(params.traversal, node), 't.hierarchy_pkid');
  const rows = deps.store.statement(sql.page).all(...sql.pageParams) as TxRow[];
  const total = params.count ? (deps.store.statement(sql.count).get(...sql.countParams) as { total: number }).total : 0;
  const resources = rows.map((row) => ({
    data: params.summary ? transactionSummary(row) : transactionData(deps.store, row),
    meta: transactionMeta(row),
  }));
  return listResponse(deps.store, ctx, model, node, params, { resources, total });
}
