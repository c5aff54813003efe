import type { ApiResponse } from '../api-types';
import type { WorkstationModel, WorkstationModelAction, WorkstationModelKind, WorkstationModelList } from '../contract/workstation-api';
import { guardNode } from '../domain/guards';
import { resolveHierarchy } from '../domain/hierarchy';
import { notFound } from '../errors';
import { hasAction } from '../models/actions';
import { ALL_MODELS } from '../models/registry';
import { modelKind, type ModelDef } from '../models/types';
import { summaryAttrsMeta } from '../schema/schema-meta';
import { json } from '../responses';
import { forwardLive, liveWorkspaceOf } from './live-workspace';
import { methodNotAllowed, type WorkstationRouteGroup } from './route-group';

/**
 * `GET /workstation/models/?hierarchy=<dot path or pkid>`: the models a node may hold, with
 * what the UI needs to offer them (titles, list columns, key, actions). Nothing in the service
 * ties a model to a node type (a create is checked for reach and role, never for the node's
 * type), so the answer is every model that can be created through the API: the registry's data,
 * device and relation models with instances and a create action; tool/ and view/ models never.
 */
const KIND_ORDER: readonly WorkstationModelKind[] = ['relation', 'device', 'data'];

function isHoldable(model: ModelDef): boolean {
  return (
    model.storage === 'instances' &&
    hasAction(model.actions, 'create') &&
    KIND_ORDER.includes(modelKind(model.modelType) as WorkstationModelKind)
  );
}

function actionsOf(model: ModelDef): WorkstationModelAction[] {
  const actions: WorkstationModelAction[] = [];
  if (hasAction(model.actions, 'create')) actions.push('add');
  if (hasAction(model.actions, 'update')) actions.push('modify');
  if (hasAction(model.actions, 'delete')) actions.push('delete');
  if (hasAction(model.actions, 'export')) actions.push('export');
  // What a sheet may load (sheets/sheet-model.ts): instances with a create action, and the template to start from.
  if (hasAction(model.actions, 'export_bulkload_template')) actions.push('bulk_load');
  return actions;
}

function entryOf(model: ModelDef): WorkstationModel {
  return {
    model_type: model.modelType,
    title: model.title,
    description: model.description,
    kind: modelKind(model.modelType) as WorkstationModelKind,
    summary_attrs: summaryAttrsMeta(model),
    business_key: { hierarchy: model.businessKey.hierarchy, fields: [...model.businessKey.fields] },
    actions: actionsOf(model),
  };
}

/** The models any node may hold: relation models first, then device, then data, each in the registry's order. */
export function holdableModels(): WorkstationModel[] {
  const holdable = ALL_MODELS.filter(isHoldable);
  return KIND_ORDER.flatMap((kind) => holdable.filter((model) => modelKind(model.modelType) === kind).map(entryOf));
}

export const modelRoutes: WorkstationRouteGroup = {
  prefix: 'models',
  async handle(deps, ctx, rest) {
    if (rest.length > 0)
      throw notFound(`No workstation endpoint at ${ctx.path}: the model catalog is /workstation/models/?hierarchy=<node>.`);
    if (ctx.method !== 'GET') throw methodNotAllowed(ctx, 'GET');
    const requested = ctx.query.get('hierarchy');
    const workspace = liveWorkspaceOf(ctx.request);
    if (workspace !== undefined && requested !== null && requested.trim() !== '') {
      // A node of a live workspace is the remote's: the remote says whether it exists and the
      // caller (through the profile, which only admins who may use it can) may read there.
      const query = new URLSearchParams({ hierarchy: requested, limit: '1', count: 'false' });
      const answer: ApiResponse = await forwardLive(deps, ctx, workspace, {
        method: 'GET',
        url: `/api/data/HierarchyNode/?${query.toString()}`,
        headers: { accept: 'application/json' },
      });
      if (answer.status !== 200) return answer;
      answer.bodyStream?.destroy();
      const body: WorkstationModelList = {
        hierarchy: { requested, pkid: null, path: null, node_type: null },
        workspace,
        models: holdableModels(),
      };
      return json(200, body);
    }
    const node = resolveHierarchy(deps.store.nodes, requested);
    guardNode(ctx, node, 'read');
    const body: WorkstationModelList = {
      hierarchy: { requested: requested as string, pkid: node.pkid, path: node.path, node_type: node.node_type },
      workspace: 'Local',
      models: holdableModels(),
    };
    return json(200, body);
  },
};
