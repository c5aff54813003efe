import { ApiError, conflict } from '../../errors';
import { isWithin } from '../../domain/hierarchy';
import { insertInstance, replaceInstance, requireNode } from '../../domain/instance-ops';
import type { Store } from '../../domain/store';
import type { NodeRow } from '../../store/nodes-repo';
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
      assertEmpty(store, self);
      store.instances.delete(existing.pkid);
      store.nodes.delete(self.pkid);
    });
    return { resourcePkid: existing.pkid, state: 'Deleted' };
  },
};

/** A node is deleted only once it holds nothing: the 409 says what is still there. */
function assertEmpty(store: Store, node: NodeRow): void {
  if (node.parent_pkid === null) throw conflict('The root node sys cannot be deleted.');
  const children = store.nodes.childrenOf(node.pkid);
  const resources = store.instances.countByModelAt(node.pkid).filter((entry) => entry.modelType !== 'data/HierarchyNode');
  if (children.length === 0 && resources.length === 0) return;
  const parts: string[] = [];
  if (children.length > 0) {
    const names = children
      .slice(0, 10)
      .map((child) => child.name)
      .join(', ');
    parts.push(`${children.length} child node${children.length === 1 ? '' : 's'} (${names}${children.length > 10 ? ', ...' : ''})`);
  }
  if (resources.length > 0) {
    const total = resources.reduce((sum, entry) => sum + entry.count, 0);
    const byModel = resources.map((entry) => `${entry.modelType}: ${entry.count}`).join(', ');
    parts.push(`${total} resource${total === 1 ? '' : 's'} (${byModel})`);
  }
  throw conflict(`Hierarchy node ${node.path} still holds ${parts.join(' and ')}; delete or move them first.`);
}
