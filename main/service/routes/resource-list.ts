import type { ApiResponse, JsonObject } from '../api-types';
import type { ListedInstance, ListMeta, Pagination } from '../contract/resource-api';
import { nodeHref, resolveHierarchy } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { instanceListSql } from '../list/instance-list-sql';
import { parseBoolean, parseListParams, MAX_LIMIT, type ListParams } from '../list/list-params';
import type { ModelDef } from '../models/types';
import { draft03Schema } from '../schema/draft03';
import { actionsByName, schemaMeta, schemaVersionOf, summaryAttrsMeta } from '../schema/schema-meta';
import type { NodeRow } from '../store/nodes-repo';
import { header, type RequestContext } from '../request-context';
import { json } from '../responses';
import { instanceHref, visibleData } from '../domain/resource-view';
import { guardNode } from '../domain/guards';
import type { RouteDeps } from './deps';
import { schemaRulesMeta } from './schema-rules';

interface InstanceRow {
  pkid: string;
  hierarchy_pkid: string;
  /** The whole instance (summary=false) or its summary object (summary=true). */
  data?: string;
  summary?: string;
  tags: string;
  version_tag: string | null;
}

export function listInstances(deps: RouteDeps, ctx: RequestContext, model: ModelDef): ApiResponse {
  const { store } = deps;
  // Parameters before the node: a bad one is 400 wherever the hierarchy points, so it never
  // tells a node out of reach that exists (found, then refused) from one that does not.
  const params = parseListParams(model, ctx.query, header(ctx, 'range'));
  const node = resolveHierarchy(store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'read', params.traversal === 'up');
  const sql = instanceListSql(store, model, params, node);
  // One read transaction, so the page and its total come from the same snapshot.
  const { rows, total } = store.db.transaction(() => {
    return {
      rows: store.statement(sql.page).all(...sql.pageParams) as InstanceRow[],
      total: params.count
        ? deps.readCache.total(
            `${sql.count} ${JSON.stringify(sql.countParams)}`,
            () => (store.statement(sql.count).get(...sql.countParams) as { total: number }).total,
          )
        : 0,
    };
  })();
  const resources = rows.map((row) => {
    const hierarchy = store.nodes.get(row.hierarchy_pkid)?.path ?? '';
    return {
      data:
        row.summary === undefined ? visibleData(model, JSON.parse(row.data ?? '{}') as JsonObject, hierarchy) : summaryData(row.summary),
      meta: {
        model_type: model.modelType,
        pkid: row.pkid,
        hierarchy,
        tags: JSON.parse(row.tags) as string[],
        schema_version: schemaVersionOf(model, ctx.deviceSchemaVersion),
        href: instanceHref(model.modelType, row.pkid),
        ...(row.version_tag !== null ? { version_tag: row.version_tag } : {}),
      },
    } satisfies ListedInstance;
  });
  return listResponse(store, ctx, model, node, params, { resources, total });
}

/** The summary object from SQL, without the fields the instance lacks (null there). */
function summaryData(summary: string): JsonObject {
  const data = JSON.parse(summary) as JsonObject;
  for (const [name, value] of Object.entries(data)) if (value === null) delete data[name];
  return data;
}

/** The list envelope of decisions.md, shared by every listable model. */
export function listResponse(
  store: Store,
  ctx: RequestContext,
  model: ModelDef,
  node: NodeRow,
  params: ListParams,
  page: { resources: unknown[]; total: number },
): ApiResponse {
  const withSchema = parseBoolean(ctx.query, 'schema', false);
  const withRules = parseBoolean(ctx.query, 'schema_rules', false);
  const meta: JsonObject = {
    model_type: model.modelType,
    summary_attrs: summaryAttrsMeta(model),
    actions: actionsByName(model),
    references: {
      self: [{ href: `/api/${model.modelType}/?hierarchy=${encodeURIComponent(node.path)}` }],
      parent: [{ pkid: node.pkid, href: nodeHref(node.pkid) }],
      children: [],
      device: [],
      owner: [],
    },
  } satisfies ListMeta;
  const body: JsonObject = {
    pagination: {
      skip: params.skip,
      limit: params.limit,
      total: page.total,
      maximum_limit: MAX_LIMIT,
      order_by: params.orderBy,
      direction: params.direction,
    } satisfies Pagination,
    meta,
    resources: page.resources as JsonObject[],
  };
  if (withSchema) {
    body.schema = draft03Schema(model);
    Object.assign(meta, { ...schemaMeta(model, ctx.deviceSchemaVersion), actions: meta.actions });
  }
  if (withRules) Object.assign(meta, schemaRulesMeta(store, model, node));
  const headers: Record<string, string> = {};
  if (params.range) {
    const count = page.resources.length;
    headers['content-range'] = count === 0 ? `items */${page.total}` : `items ${params.skip}-${params.skip + count - 1}/${page.total}`;
  }
  return json(200, body, headers);
}
