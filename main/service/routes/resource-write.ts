import { isJsonObject, type ApiResponse } from '../api-types';
import { assertPathReach } from '../auth/access';
import { resolveHierarchy } from '../domain/hierarchy';
import { labelOf, requireInstance, requireNode } from '../domain/instance-ops';
import { ApiError, MethodNotAllowed } from '../errors';
import { hasAction } from '../models/actions';
import type { ModelDef } from '../models/types';
import { newPkid } from '../store/ids';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import type { TxSpec } from '../transactions/engine';
import { WORKFLOWS } from '../transactions/workflows';
import { jsonBody, type RequestContext } from '../request-context';
import type { RouteDeps } from './deps';
import { guardInstance, guardNode, guardUserData } from '../domain/guards';
import { extractSecrets, prepareCreate, prepareModify } from '../domain/prepare-change';
import { answerTransaction } from './transaction-answer';
import { parseRoutePath } from '../domain/route-path';

function payloadData(ctx: RequestContext): unknown {
  const body = jsonBody(ctx);
  if (!isJsonObject(body) || !('data' in body)) {
    throw new ApiError(400, 'validation-failed', 'The body must be a JSON object of the form {"data": {...}}.', [
      { field: 'data', message: 'is missing' },
    ]);
  }
  return body.data;
}

function requireWritable(model: ModelDef, action: string): void {
  if (model.storage !== 'instances' || !hasAction(model.actions, action)) {
    // Such a model is read only: GET is what its paths take.
    throw new MethodNotAllowed(`${model.modelType} does not support ${action}.`, ['GET']);
  }
}

export async function createResource(deps: RouteDeps, ctx: RequestContext, model: ModelDef): Promise<ApiResponse> {
  requireWritable(model, 'create');
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'create');
  const data = prepareCreate(deps.store, ctx, model, node, payloadData(ctx), ctx.query);
  const secrets = await extractSecrets(model, data);
  const pkid = newPkid();
  const { store } = deps;
  const submitted = deps.engine.submit({
    username: ctx.principal.username,
    action: 'Create',
    detail: `${model.modelType} ${labelOf(model, data)}`.trim(),
    modelType: model.modelType,
    hierarchyPkid: node.pkid,
    hierarchyPath: node.path,
    resourcePkid: pkid,
    run: (steps) => WORKFLOWS[model.workflow].create(steps, { store, model, node, pkid, data, secrets }),
  });
  return answerTransaction(deps, ctx, model, submitted, 'create');
}

export async function updateResource(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string): Promise<ApiResponse> {
  requireWritable(model, 'update');
  const { store } = deps;
  const existing = requireInstance(store, pkid, model.modelType);
  guardInstance(ctx, store, existing, 'update');
  const current = requireNode(store, existing.hierarchyPkid);
  const node = targetNode(deps, ctx, model, existing, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'update');
  const data = prepareModify(store, ctx, model, existing, current, node, payloadData(ctx), ctx.query);
  const secrets = await extractSecrets(model, data);
  const submitted = deps.engine.submit({
    username: ctx.principal.username,
    action: 'Modify',
    detail: `${model.modelType} ${labelOf(model, data)}`.trim(),
    modelType: model.modelType,
    hierarchyPkid: existing.hierarchyPkid,
    hierarchyPath: existing.hierarchyPath,
    resourcePkid: pkid,
    run: (steps) => WORKFLOWS[model.workflow].modify(steps, { store, model, node, existing, data, secrets }),
  });
  return answerTransaction(deps, ctx, model, submitted, 'update');
}

/**
 * Only a hierarchy node moves with `hierarchy` (to the named parent); for anything else, and
 * when it names the node itself, it is the caller's context: it must exist and be one the caller may read.
 */
function targetNode(deps: RouteDeps, ctx: RequestContext, model: ModelDef, existing: InstanceRecord, hierarchy: string | null): NodeRow {
  const current = requireNode(deps.store, existing.hierarchyPkid);
  if (!hierarchy) return current;
  const named = resolveHierarchy(deps.store.nodes, hierarchy);
  const movesNode = model.modelType === 'data/HierarchyNode' && named.pkid !== existing.pkid;
  // A context must be one the caller may read: else a sibling site would be accepted while a
  // made-up one is refused, and the answer would tell which sites exist (decisions.md).
  if (!movesNode) assertPathReach(ctx.principal, ctx.callerPath, named.path, { readUp: true });
  return movesNode ? named : current;
}

function deleteSpec(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string, hierarchyPath: string, label: string): TxSpec {
  const { store } = deps;
  const existing = store.instances.get(pkid);
  return {
    username: ctx.principal.username,
    action: 'Delete',
    detail: `${model.modelType} ${label}`.trim(),
    modelType: model.modelType,
    hierarchyPkid: existing?.hierarchyPkid ?? null,
    hierarchyPath,
    resourcePkid: pkid,
    // Looked up again when it runs: an earlier transaction in the queue may have removed it.
    run: (steps) => WORKFLOWS[model.workflow].remove(steps, { store, model, existing: requireInstance(store, pkid, model.modelType) }),
  };
}

export async function deleteResource(deps: RouteDeps, ctx: RequestContext, model: ModelDef, pkid: string): Promise<ApiResponse> {
  requireWritable(model, 'delete');
  const existing = requireInstance(deps.store, pkid, model.modelType);
  guardInstance(ctx, deps.store, existing, 'delete');
  guardUserData(ctx, model.modelType, existing.data, requireNode(deps.store, existing.hierarchyPkid));
  const spec = deleteSpec(deps, ctx, model, pkid, existing.hierarchyPath, labelOf(model, existing.data));
  return answerTransaction(deps, ctx, model, deps.engine.submit(spec), 'delete', existing);
}

/** DELETE on a list path with `{"hrefs": [...]}`: one parent, one sub-transaction per instance. */
export async function deleteMany(deps: RouteDeps, ctx: RequestContext, model: ModelDef): Promise<ApiResponse> {
  requireWritable(model, 'delete');
  const body = jsonBody(ctx);
  const hrefs = isJsonObject(body) ? body.hrefs : undefined;
  if (!Array.isArray(hrefs) || hrefs.length === 0 || !hrefs.every((href) => typeof href === 'string')) {
    throw new ApiError(400, 'validation-failed', 'DELETE on a list needs {"hrefs": ["/api/<type>/<name>/<pkid>/", ...]}.', [
      { field: 'hrefs', message: 'must be a non-empty list of instance paths' },
    ]);
  }
  const node = resolveHierarchy(deps.store.nodes, ctx.query.get('hierarchy'));
  guardNode(ctx, node, 'delete');
  const children = (hrefs as string[]).map((href) => {
    const route = parseRoutePath(new URL(href, 'http://local').pathname);
    if (!route || route.modelType !== model.modelType || route.rest.length !== 1) {
      throw new ApiError(400, 'validation-failed', `${href} is not an instance of ${model.modelType}.`, [
        { field: 'hrefs', message: `${href} is not an instance path of this model` },
      ]);
    }
    const existing = deps.store.instances.get(route.rest[0]);
    // Every target is checked before anything runs: one out of reach refuses the whole call.
    if (existing) guardInstance(ctx, deps.store, existing, 'delete');
    return deleteSpec(
      deps,
      ctx,
      model,
      route.rest[0],
      existing?.hierarchyPath ?? node.path,
      existing ? labelOf(model, existing.data) : route.rest[0],
    );
  });
  const submitted = deps.engine.submitGroup(
    {
      username: ctx.principal.username,
      action: 'Delete',
      detail: `${children.length} ${model.modelType} instance${children.length === 1 ? '' : 's'}`,
      modelType: model.modelType,
      hierarchyPkid: node.pkid,
      hierarchyPath: node.path,
      resourcePkid: null,
    },
    children,
  );
  return answerTransaction(deps, ctx, model, submitted, 'delete');
}
