import type { ApiResponse, JsonObject } from '../api-types';
import { assertRole } from '../auth/access';
import { resolveHierarchy } from '../domain/hierarchy';
import { requireInstance, requireNode } from '../domain/instance-ops';
import { ApiError, methodNotAllowed, notFound } from '../errors';
import { parseBoolean } from '../list/list-params';
import { exportData } from '../models/export-data';
import type { ModelDef } from '../models/types';
import { jsonBody, type RequestContext, readsUp } from '../request-context';
import { json } from '../responses';
import { draft03Schema } from '../schema/draft03';
import { schemaMeta } from '../schema/schema-meta';
import { readSearchRequest } from '../search/search-request';
import { callerScope } from '../search/search-scope';
import { exportDownloadHref, keepForDownload, keptExport } from '../sheets/export-download';
import { checkExportFormat, exportFileName, fileResponse, xlsxFile } from '../sheets/export-file';
import type { ExportSource } from '../sheets/export-job';
import { hrefsOf, listExportSql } from '../sheets/export-select';
import { exportDataTypeOf } from '../sheets/export-search';
import { lookOf, templateNameOf, templateSheet } from '../sheets/export-sheet';
import { writeWorkbook } from '../sheets/write-workbook';
import type { NodeRow } from '../store/nodes-repo';
import type { RouteDeps } from './deps';
import { guardInstance, guardNode, type Caller } from '../domain/guards';
import { instanceHref } from '../domain/resource-view';
import { transactionHref } from './transaction-answer';

/**
 * Spreadsheet templates and exports (decisions.md, "Bulk load sheets" and "Exports"). Every one
 * needs the `export` operation (operator and admin) on what it writes, the template included.
 */
const onlyMethod = (ctx: RequestContext, method: string): void => {
  if (ctx.method !== method) throw methodNotAllowed(ctx, method);
};

/**
 * The `hierarchy` named: a request that names no instance pkid must carry it (spec, "every
 * request without an instance pkid"), else 400 `hierarchy-required`. It never falls back to the
 * caller's own node, which would quietly aim a template or an export somewhere not asked for.
 */
const namedNode = (deps: RouteDeps, ctx: RequestContext): NodeRow => resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));

/** `GET /api/<type>/<name>/export_bulkload_template/`: the directive layout with no data rows. */
export async function exportTemplate(deps: RouteDeps, ctx: RequestContext, model: ModelDef): Promise<ApiResponse> {
  onlyMethod(ctx, 'GET');
  const node = namedNode(deps, ctx);
  guardNode(ctx, node, 'export');
  const template = templateNameOf(deps.store, model, node, ctx.query);
  const sheet = templateSheet(model, lookOf(deps.store, model, node, ctx.query), { hierarchy: node.path, template, layout: 'directive' });
  const fileName = exportFileName(model.modelType, 'bulkload_template', deps.store.now());
  return fileResponse(ctx, xlsxFile(fileName, await writeWorkbook([sheet])));
}

/** The spec's export query; `schema` and `schema_rules` are accepted, the sheet's rows 2-4 already carry the schema. */
function checkExportQuery(ctx: RequestContext): void {
  checkExportFormat(ctx.query);
  parseBoolean(ctx.query, 'schema', false);
  parseBoolean(ctx.query, 'schema_rules', false);
}

/** The instances of `source` in one workbook, written by a job worker. */
async function instancesFile(
  deps: RouteDeps,
  ctx: RequestContext,
  model: ModelDef,
  node: NodeRow,
  source: ExportSource,
): Promise<ApiResponse> {
  const template = templateNameOf(deps.store, model, node, ctx.query);
  const job = {
    source,
    modelType: model.modelType,
    look: lookOf(deps.store, model, node, ctx.query),
    place: { hierarchy: node.path, template, layout: 'directive' as const },
    fileName: exportFileName(model.modelType, 'exportedsheet_formatted', deps.store.now()),
  };
  return fileResponse(ctx, await deps.jobs.run('export', job, { owner: ctx.principal.username }));
}

const callerOf = (ctx: RequestContext): Caller => ({ principal: ctx.principal, callerPath: ctx.callerPath });

/** `GET /api/<type>/<name>/<pkid>/export/`: one instance; A1 names its node unless `hierarchy` says otherwise. */
export async function exportInstance(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string): Promise<ApiResponse> {
  onlyMethod(ctx, 'GET');
  checkExportQuery(ctx);
  const record = requireInstance(deps.store, pkid, model.modelType);
  guardInstance(ctx, deps.store, record, 'export', readsUp(ctx));
  const given = ctx.query.get('hierarchy');
  const node = given ? resolveHierarchy(deps.store.nodes, given) : requireNode(deps.store, record.hierarchyPkid);
  if (given) guardNode(ctx, node, 'export', readsUp(ctx));
  return instancesFile(deps, ctx, model, node, {
    kind: 'hrefs',
    hrefs: [instanceHref(model.modelType, record.pkid)],
    caller: callerOf(ctx),
    readUp: readsUp(ctx),
  });
}

/** `POST /api/<type>/<name>/export/`: the body's `hrefs`, else what the list parameters select. */
export async function exportMany(deps: RouteDeps, ctx: RequestContext, model: ModelDef): Promise<ApiResponse> {
  onlyMethod(ctx, 'POST');
  checkExportQuery(ctx);
  const hrefs = hrefsOf(jsonBody(ctx));
  if (hrefs === undefined) {
    const { node, ...list } = listExportSql(deps.store, ctx, model);
    return instancesFile(deps, ctx, model, node, { kind: 'list', ...list });
  }
  const node = namedNode(deps, ctx);
  guardNode(ctx, node, 'export', readsUp(ctx));
  return instancesFile(deps, ctx, model, node, { kind: 'hrefs', hrefs, caller: callerOf(ctx), readUp: false });
}

/** `view/ExportData`: `add/` is the form listing the `export_data_type` choices; help is served by dispatch. */
export function routeExportDataView(ctx: RequestContext, rest: string[]): ApiResponse {
  if (rest.length !== 1 || rest[0] !== 'add') throw notFound(`No resource at ${ctx.path}: view/ExportData has add/ and help/.`);
  onlyMethod(ctx, 'GET');
  const data: JsonObject = {};
  for (const [name, field] of Object.entries(exportData.fields)) if (field.default !== undefined) data[name] = field.default;
  const meta = {
    ...schemaMeta(exportData, ctx.deviceSchemaVersion),
    ...(ctx.query.get('hierarchy') ? { hierarchy: ctx.query.get('hierarchy') } : {}),
  };
  return json(200, { data, schema: draft03Schema(exportData), meta });
}

/** `/api/export/export_data/?url=/api/tool/Search/` (POST) and `/api/export/download/<id>/` (GET). */
export async function routeExportPath(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  const segments = ctx.path.split('/').filter((segment) => segment !== '');
  if (segments.length === 3 && segments[2] === 'export_data') return exportSearch(deps, ctx);
  if (segments.length === 4 && segments[2] === 'download') {
    onlyMethod(ctx, 'GET');
    const { row, file } = keptExport(deps.store, segments[3], ctx.principal.username);
    guardNode(ctx, requireNode(deps.store, row.hierarchy_pkid), 'export');
    return fileResponse(ctx, file);
  }
  throw notFound(`No resource at ${ctx.path}: exports are /api/export/export_data/?url=/api/tool/Search/ and /api/export/download/<id>/.`);
}

async function exportSearch(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  onlyMethod(ctx, 'POST');
  const url = ctx.query.get('url') ?? '';
  if (!/^\/api\/tool\/Search\/?$/.test(url))
    throw new ApiError(400, 'bad-parameter', `url must be /api/tool/Search/, not '${url}'.`, [
      { field: 'url', message: 'must be /api/tool/Search/' },
    ]);
  assertRole(ctx.principal, 'search');
  assertRole(ctx.principal, 'export');
  const type = exportDataTypeOf(jsonBody(ctx));
  const request = readSearchRequest(ctx);
  const node =
    request.hierarchy === null
      ? requireNode(deps.store, ctx.principal.hierarchyPkid)
      : resolveHierarchy(deps.store.nodes, request.hierarchy);
  // Reach is settled before the job is queued: a node out of reach is refused at once, as one
  // that does not exist is, never after a wait in the queue or with a 429 that only it could get.
  callerScope(ctx.principal, ctx.callerPath, node, request.direction);
  const search = { principal: ctx.principal, request, type, nodePkid: node.pkid };
  const file = await deps.jobs.run('export', { search }, { owner: ctx.principal.username });
  if (!parseBoolean(ctx.query, 'nowait', false)) return fileResponse(ctx, file);
  const kept = keepForDownload(deps.store, deps.engine, ctx.principal, node, file);
  const href = transactionHref(kept.transactionId);
  return json(202, { href, success: true, transaction_id: kept.transactionId, download_href: exportDownloadHref(kept.id) });
}
