import { isJsonObject, type Json, type JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { ApiError, notFound } from '../errors';
import { instanceListSql } from '../list/instance-list-sql';
import { parseListParams } from '../list/list-params';
import type { ModelDef } from '../models/types';
import { header, type RequestContext } from '../request-context';
import { guardInstance, guardNode } from '../routes/guards';
import { parseRoutePath } from '../routes/route-path';
import type { NodeRow } from '../store/nodes-repo';
import type { ExportRecord } from './export-sheet';
import { SHEET_LIMITS } from './limits';

/**
 * Which instances `POST /api/<type>/<name>/export/` writes: the `hrefs` of the body, or what the
 * list parameters of the query select (decisions.md, "Exports").
 */

/** Decisions.md: a workbook holds at most 1,000,000 data rows; an export never writes one the loader refuses. */
export const MAX_EXPORT_ROWS = SHEET_LIMITS.dataRows;

const tooMany = (): ApiError =>
  new ApiError(413, 'too-large', `An export holds at most ${MAX_EXPORT_ROWS} instances (the bulk load limit): narrow it with filters or limit.`);

const badHrefs = (message: string): ApiError => new ApiError(400, 'validation-failed', message, [{ field: 'hrefs', message }]);

/** The body's `hrefs`, or undefined when the body names none (the list parameters then select). */
export function hrefsOf(body: Json | undefined): string[] | undefined {
  if (body === undefined || (isJsonObject(body) && body.hrefs === undefined)) return undefined;
  const hrefs = isJsonObject(body) ? body.hrefs : undefined;
  if (!Array.isArray(hrefs) || hrefs.length === 0 || !hrefs.every((href) => typeof href === 'string')) {
    throw badHrefs('An export body is {"hrefs": ["/api/<type>/<name>/<pkid>/", ...]}, or none to export what the list parameters select.');
  }
  if (hrefs.length > MAX_EXPORT_ROWS) throw tooMany();
  return hrefs as string[];
}

/** Each href must be an instance of the model the caller may export; one refusal refuses all. */
export function recordsByHrefs(store: Store, ctx: RequestContext, model: ModelDef, hrefs: string[]): ExportRecord[] {
  return hrefs.map((href) => {
    const route = parseRoutePath(new URL(href, 'http://local').pathname);
    if (!route || route.modelType !== model.modelType || route.rest.length !== 1) {
      throw badHrefs(`${href} is not an instance path of ${model.modelType}.`);
    }
    const record = store.instances.get(route.rest[0]);
    if (!record || record.modelType !== model.modelType) throw notFound(`${model.modelType} ${route.rest[0]} was not found.`);
    guardInstance(ctx, store, record, 'export');
    return record;
  });
}

interface Row {
  pkid: string;
  hierarchy_pkid: string;
  data: string;
}

/**
 * What a list with the same query would show, every field of it. Without `limit` (or a Range)
 * the export takes every match, not the list's first page of 50.
 */
export function recordsByList(store: Store, ctx: RequestContext, model: ModelDef, node: NodeRow): ExportRecord[] {
  const params = parseListParams(model, ctx.query, header(ctx, 'range'));
  guardNode(ctx, node, 'export', params.traversal === 'up');
  const everything = ctx.query.get('limit') === null && !params.range;
  // One row past the limit tells "exactly the limit" from "more than can be written".
  const selected = { ...params, summary: false, limit: everything ? MAX_EXPORT_ROWS + 1 : params.limit };
  const sql = instanceListSql(store, model, selected, node);
  const rows = store.statement(sql.page).all(...sql.pageParams) as Row[];
  if (rows.length > MAX_EXPORT_ROWS) throw tooMany();
  return rows.map((row) => ({
    pkid: row.pkid,
    hierarchyPath: store.nodes.get(row.hierarchy_pkid)?.path ?? '',
    data: JSON.parse(row.data) as JsonObject,
  }));
}
