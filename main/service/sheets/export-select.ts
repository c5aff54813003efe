import { isJsonObject, type Json } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import { instanceListSql } from '../list/instance-list-sql';
import { parseListParams } from '../list/list-params';
import type { ModelDef } from '../models/types';
import { header, type RequestContext } from '../request-context';
import { guardNode } from '../domain/guards';
import type { NodeRow } from '../store/nodes-repo';
import { SHEET_LIMITS } from './limits';

/**
 * Which instances `POST /api/<type>/<name>/export/` writes: the `hrefs` of the body, or what the
 * list parameters of the query select (decisions.md, "Exports").
 */

/** Decisions.md: a workbook holds at most 1,000,000 data rows; an export never writes one the loader refuses. */
export const MAX_EXPORT_ROWS = SHEET_LIMITS.dataRows;

export const tooMany = (): ApiError =>
  new ApiError(
    413,
    'too-large',
    `An export holds at most ${MAX_EXPORT_ROWS} instances (the bulk load limit): narrow it with filters or limit.`,
  );

export const badHrefs = (message: string): ApiError => new ApiError(400, 'validation-failed', message, [{ field: 'hrefs', message }]);

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

/**
 * The SQL of what a list with the same query would show, every field of it, after the reach
 * check; the export job reads it on a worker. Without `limit` (or a Range) the export takes
 * every match, not the list's first page of 50.
 */
export function listExportSql(store: Store, ctx: RequestContext, model: ModelDef): { node: NodeRow; sql: string; params: unknown[] } {
  // The parameters are read before the node is looked up: a bad one is then 400 wherever the
  // hierarchy points, never 400 for a node out of reach and 403 for one that does not exist.
  const params = parseListParams(model, ctx.query, header(ctx, 'range'));
  const node = resolveHierarchy(store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'export', params.traversal === 'up');
  const everything = ctx.query.get('limit') === null && !params.range;
  // One row past the limit tells "exactly the limit" from "more than can be written".
  const selected = { ...params, summary: false, limit: everything ? MAX_EXPORT_ROWS + 1 : params.limit };
  const sql = instanceListSql(store, model, selected, node);
  return { node, sql: sql.page, params: sql.pageParams };
}
