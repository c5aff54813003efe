import type { ApiResponse } from '../api-types';
import { ApiError, methodNotAllowed, notFound } from '../errors';
import { requireModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import type { RequestContext } from '../request-context';
import type { RouteDeps } from './deps';
import { listInstances } from './resource-list';
import { addForm, getInstance, helpPage } from './resource-read';
import { exportInstance, exportMany, exportTemplate, routeExportDataView, routeExportPath } from './exports';
import { createResource, deleteMany, deleteResource, updateResource } from './resource-write';
import { parseRoutePath } from '../domain/route-path';
import { routeSearch } from './search';
import { routeBulkLoad } from './bulk-load';
import { routeTags } from './tags';
import { routeUpload } from './uploads';
import { routeTransactions } from './transactions';
import { whoAmI } from './whoami';
import { openApiDocument } from '../openapi/openapi-document';
import { json } from '../responses';

/** Dispatches `/api/<type>/<name>/...` to the handler of its endpoint family. */
export async function dispatch(deps: RouteDeps, ctx: RequestContext): Promise<ApiResponse> {
  if (/^\/api\/uploadfiles\/?$/.test(ctx.path)) return routeUpload(deps, ctx);
  if (/^\/api\/whoami\/?$/.test(ctx.path)) return whoAmI(deps, ctx);
  if (ctx.path === '/api/openapi.json') {
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    return json(200, openApiDocument());
  }
  if (ctx.path.startsWith('/api/export/')) return routeExportPath(deps, ctx);
  const route = parseRoutePath(ctx.path);
  if (!route) throw notFound(`No resource at ${ctx.path}: paths look like /api/<model_type>/<model_name>/.`);
  const model = requireModel(route.modelType);
  const { rest } = route;
  if (rest.length === 1 && rest[0] === 'help') {
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    return helpPage(model);
  }
  if (model.modelType === 'tool/Transaction') return routeTransactions(deps, ctx, model, rest);
  if (model.modelType === 'tool/Search') return routeSearch(deps, ctx, rest);
  if (model.modelType === 'tool/BulkLoad') return routeBulkLoad(deps, ctx, rest);
  if (model.modelType === 'view/ExportData') return routeExportDataView(ctx, rest);
  if (model.storage !== 'instances') {
    throw new ApiError(404, 'not-found', `${model.modelType} has no resource at ${ctx.path}.`);
  }
  return routeInstances(deps, ctx, model, rest);
}

async function routeInstances(deps: RouteDeps, ctx: RequestContext, model: ModelDef, rest: string[]): Promise<ApiResponse> {
  const { store } = deps;
  if (rest.length === 0) {
    if (ctx.method === 'GET') return listInstances(deps, ctx, model);
    if (ctx.method === 'POST') return createResource(deps, ctx, model);
    if (ctx.method === 'DELETE') return deleteMany(deps, ctx, model);
    throw methodNotAllowed(ctx, 'GET, POST or DELETE');
  }
  if (rest.length === 1 && rest[0] === 'add') {
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    return addForm(store, ctx, model);
  }
  if (rest.length === 1 && rest[0] === 'export_bulkload_template') return exportTemplate(deps, ctx, model);
  if (rest.length === 1 && rest[0] === 'export') return exportMany(deps, ctx, model);
  if (rest.length === 2 && rest[1] === 'export') return exportInstance(deps, ctx, model, rest[0]);
  if (rest.length === 1) {
    const pkid = rest[0];
    if (ctx.method === 'GET') return getInstance(deps, ctx, model, pkid);
    if (ctx.method === 'PUT') return updateResource(deps, ctx, model, pkid);
    if (ctx.method === 'DELETE') return deleteResource(deps, ctx, model, pkid);
    throw methodNotAllowed(ctx, 'GET, PUT or DELETE');
  }
  if (rest.length === 2 && (rest[1] === '+tag' || rest[1] === '+tag_version')) return routeTags(deps, ctx, model, rest[0], rest[1]);
  throw notFound(`No resource at ${ctx.path}.`);
}
