import { insertInstance, labelOf, replaceInstance } from '../../domain/instance-ops';
import type { Workflow } from './types';

/** One step per change: the instance itself, its business key checked. */
export const genericWorkflow: Workflow = {
  create(ctx, { store, model, node, pkid, data }) {
    ctx.step(`Create ${model.modelType} ${labelOf(model, data)} at ${node.path}`, () => insertInstance(store, model, node, data, { pkid }));
    return { resourcePkid: pkid, state: 'Created' };
  },
  modify(ctx, { store, model, node, existing, data }) {
    ctx.step(`Modify ${model.modelType} ${labelOf(model, data)}`, () => replaceInstance(store, existing, data, { node }));
    return { resourcePkid: existing.pkid, state: 'Modified' };
  },
  remove(ctx, { store, model, existing }) {
    ctx.step(`Delete ${model.modelType} ${labelOf(model, existing.data)}`, () => store.instances.delete(existing.pkid));
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};
