import type { ApiResponse } from '../api-types';
import { assertRole } from '../auth/access';
import type { SavedMappingFile, SavedMappingInfo } from '../contract/mapping-api';
import { guardNode } from '../domain/guards';
import { isWithin, resolveHierarchy } from '../domain/hierarchy';
import { notFound } from '../errors';
import { readMapping } from '../mapping/mapping-file';
import type { RequestContext } from '../request-context';
import { json } from '../responses';
import type { SavedMappingRecord } from '../store/mappings-repo';
import { savedInfo } from '../workbooks/workbook-mapping';
import { bad, bodyOf, checkFieldTypes } from './body-fields';
import { methodNotAllowed, type WorkstationDeps, type WorkstationRouteGroup } from './route-group';

/**
 * Mappings saved per customer node (issue "Customer sheets in any shape", point 5):
 * `GET /workstation/mappings/` lists those the caller may use (saved at their node, below it or
 * above it); `POST` imports one (`{"name", "hierarchy", "headers"?, "mapping"}`, the shape GET of
 * one exports); `GET .../<id>/` exports it; `DELETE .../<id>/` removes it. A staged workbook saves
 * one with `save_as` when its mapping is confirmed.
 */

/** Saved at the caller's node, below it, or above it (a customer's mapping serves its sites). */
function visible(deps: WorkstationDeps, ctx: RequestContext, record: SavedMappingRecord): boolean {
  const path = deps.store.nodes.get(record.node_pkid)?.path;
  return path !== undefined && (isWithin(path, ctx.callerPath) || isWithin(ctx.callerPath, path));
}

function found(deps: WorkstationDeps, ctx: RequestContext, id: string): SavedMappingRecord {
  const record = /^\d{1,12}$/.test(id) ? deps.store.mappings.saved(Number(id)) : undefined;
  if (!record || !visible(deps, ctx, record)) throw notFound(`No saved mapping has the id '${id}'.`);
  return record;
}

function importMapping(deps: WorkstationDeps, ctx: RequestContext): ApiResponse {
  const body = bodyOf(ctx);
  checkFieldTypes(body, { name: 'string', hierarchy: 'string', headers: 'array', mapping: 'object' });
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (name === '' || name.length > 100) throw bad("'name' must be a name of 1 to 100 characters.", 'name');
  const { mapping, model } = readMapping(body.mapping);
  const node = resolveHierarchy(deps.store.nodes, typeof body.hierarchy === 'string' ? body.hierarchy : ctx.callerPath);
  guardNode(ctx, node, 'bulkload');
  const headers = Array.isArray(body.headers)
    ? body.headers.map((header, index) => {
        if (typeof header !== 'string') throw bad(`'headers' must be a list of texts; entry ${index + 1} is not.`, 'headers');
        return header;
      })
    : mapping.columns.map((column) => column.header);
  const id = deps.store.mappings.save({
    name,
    node_pkid: node.pkid,
    model_type: model.modelType,
    headers: JSON.stringify(headers),
    mapping: JSON.stringify(mapping),
    owner: ctx.principal.username,
    updated_at: deps.store.now(),
  });
  const info = savedInfo(deps.store, deps.store.mappings.saved(id) as SavedMappingRecord);
  return json(201, { success: true, mapping: info });
}

export const mappingRoutes: WorkstationRouteGroup = {
  prefix: 'mappings',
  handle(deps, ctx, rest) {
    assertRole(ctx.principal, 'bulkload');
    if (rest.length === 0) {
      if (ctx.method === 'GET') {
        const mappings: SavedMappingInfo[] = deps.store.mappings
          .all()
          .filter((record) => visible(deps, ctx, record))
          .map((record) => savedInfo(deps.store, record));
        return json(200, { mappings });
      }
      if (ctx.method === 'POST') return importMapping(deps, ctx);
      throw methodNotAllowed(ctx, 'GET or POST');
    }
    if (rest.length !== 1) throw notFound(`No workstation endpoint at ${ctx.path}.`);
    if (ctx.method !== 'GET' && ctx.method !== 'DELETE') throw methodNotAllowed(ctx, 'GET or DELETE');
    const record = found(deps, ctx, rest[0]);
    if (ctx.method === 'GET') {
      const file: SavedMappingFile = {
        name: record.name,
        hierarchy: deps.store.nodes.get(record.node_pkid)?.path ?? '',
        headers: JSON.parse(record.headers) as string[],
        mapping: JSON.parse(record.mapping) as SavedMappingFile['mapping'],
      };
      return json(200, file);
    }
    // DELETE
    const node = deps.store.nodes.get(record.node_pkid);
    if (node) guardNode(ctx, node, 'bulkload');
    deps.store.mappings.remove(record.id);
    return json(200, { success: true, id: record.id });
  },
};
