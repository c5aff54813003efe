import { isJsonObject, type ApiResponse } from '../api-types';
import { resolveHierarchy } from '../domain/hierarchy';
import { ApiError, badParameter, methodNotAllowed, notFound } from '../errors';
import { jsonBody, type RequestContext } from '../request-context';
import { JSON_TYPE } from '../responses';
import type { UploadRow } from '../store/uploads-repo';
import type { RouteDeps } from './deps';
import { startBulkLoad } from './bulk-load-start';
import { guardNode } from '../domain/guards';
import { ownedUpload } from '../domain/owned-upload';

/**
 * `POST /api/tool/BulkLoad/?method=validate&hierarchy=...` with `{"bulkload_file": "<name>"}`:
 * validates the caller's newest upload of that name without loading it. Problems of rows are data (200,
 * the validation shape of decisions.md); problems of the whole file (not an .xlsx, encrypted,
 * unsafe, over a limit, a header that names no field) are faults.
 */
function fileNameOf(ctx: RequestContext): string {
  const body = jsonBody(ctx);
  const name = isJsonObject(body) ? body.bulkload_file : undefined;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 255) {
    throw new ApiError(400, 'validation-failed', 'The body must be {"bulkload_file": "<name of an uploaded file>"}.', [
      { field: 'bulkload_file', message: 'is required: the name the file was uploaded under' },
    ]);
  }
  return name;
}

const uploadNamed = (deps: RouteDeps, ctx: RequestContext, name: string): UploadRow =>
  ownedUpload(deps.store, { principal: ctx.principal, callerPath: ctx.callerPath }, name);

async function validateUpload(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'bulkload');
  const upload = uploadNamed(deps, ctx, fileNameOf(ctx));
  // A worker validates, on its own connection: a 100,000-row workbook never holds the service.
  const caller = { principal: ctx.principal, callerPath: ctx.callerPath };
  const input = { path: deps.store.uploads.pathOf(upload.id), fileName: upload.name, caller, nodePkid: node.pkid };
  const result = await deps.jobs.run('validate', input, { owner: ctx.principal.username });
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body: result.bytes };
}

export async function routeBulkLoad(deps: RouteDeps, ctx: RequestContext, rest: string[]): Promise<ApiResponse> {
  if (rest.length > 0) throw notFound(`No resource at ${ctx.path}: bulk load is POST /api/tool/BulkLoad/.`);
  if (ctx.method !== 'POST') throw methodNotAllowed(ctx, 'POST');
  const method = ctx.query.get('method');
  if (method === 'validate') return validateUpload(deps, ctx);
  if (method === 'bulkload_spreadsheet') return startBulkLoad(deps, ctx, (name) => uploadNamed(deps, ctx, name), fileNameOf(ctx));
  throw badParameter(`method must be bulkload_spreadsheet (load) or validate (check without loading), not '${method ?? ''}'.`, 'method');
}
