import { ApiError, conflict } from '../../errors';
import { isWithin } from '../../domain/hierarchy';
import { insertInstance, replaceInstance, requireNode } from '../../domain/instance-ops';
import { liveRulesView } from '../../domain/rules/live-view';
import { nodeDeleteProblem } from '../../domain/rules/nodes';
import { throwIfProblem } from '../../domain/rules/problem';
import type { Workflow } from './types';

/**
 * A HierarchyNode instance lives at its parent node; the `nodes` tree index moves with it.
 * On modify, a `hierarchy` other than the current parent moves the node and its subtree.
 */
export const hierarchyNodeWorkflow: Workflow = {
  create(ctx, { store, model, node: parent, pkid, data }) {
    const name = String(data.name);
    ctx.step(`Create hierarchy node ${name} under ${parent.path}`, () => {
      insertInstance(store, model, parent, data, { pkid });
      store.nodes.insert({
        pkid,
        parent_pkid: parent.pkid,
        name,
        path: `${parent.path}.${name}`,
        node_type: String(data.node_type),
      });
    });
    return { resourcePkid: pkid, state: 'Created' };
  },

  modify(ctx, { store, existing, node: target, data }) {
    const self = requireNode(store, existing.pkid);
    const isRoot = self.parent_pkid === null;
    const parent = isRoot ? self : target;
    const name = String(data.name);
    if (isRoot && name !== self.name) throw new ApiError(400, 'validation-failed', 'The root node sys cannot be renamed.');
    if (!isRoot && isWithin(parent.path, self.path)) {
      throw conflict(`Cannot move ${self.path} into ${parent.path}: a node cannot be placed inside its own subtree.`);
    }
    const newPath = isRoot ? self.path : `${parent.path}.${name}`;
    const moving = newPath !== self.path;
    ctx.step(moving ? `Move hierarchy node ${self.path} to ${newPath}` : `Modify hierarchy node ${self.path}`, () => {
      replaceInstance(store, existing, data, { node: parent });
      if (moving) store.nodes.repath(self, parent.pkid, name, newPath);
      store.nodes.setType(self.pkid, String(data.node_type));
    });
    return { resourcePkid: existing.pkid, state: 'Modified' };
  },

  remove(ctx, { store, existing }) {
    const self = requireNode(store, existing.pkid);
    ctx.step(`Delete hierarchy node ${self.path}`, () => {
      throwIfProblem(nodeDeleteProblem(liveRulesView(store), self));
      store.instances.delete(existing.pkid);
      store.nodes.delete(self.pkid);
    });
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};
