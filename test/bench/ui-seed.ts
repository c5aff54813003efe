import { performance } from 'node:perf_hooks';
import { businessKeyOf } from '../../main/service/domain/business-key';
import { requireModel } from '../../main/service/models/registry';
import { openDatabase } from '../../main/service/store/db';
import { isoMicros, newPkid } from '../../main/service/store/ids';
import { InstancesRepo } from '../../main/service/store/instances-repo';
import { NodesRepo } from '../../main/service/store/nodes-repo';

export interface WideNode {
  pkid: string;
  /** Dot path, directly under the root so the tree shows it as soon as the app is ready. */
  path: string;
  children: number;
  seconds: number;
}

export const WIDE_NODE_NAME = 'BenchWide';
const NODE_MODEL = 'data/HierarchyNode';

/**
 * A node with `children` child nodes for the UI bench's expand. They are written with the
 * store's own repositories (an instance plus its `nodes` row each, as the hierarchy-node
 * workflow writes them, summary indexes kept by SQLite) in one transaction: 10,000 API calls
 * would take minutes and prove nothing more. It sits under `sys`, outside the bench customer,
 * so the list and search scenarios of the customer see none of it.
 */
export function seedWideNode(file: string, children: number): WideNode {
  const started = performance.now();
  const db = openDatabase(file);
  try {
    const nodes = new NodesRepo(db);
    const instances = new InstancesRepo(db, () => isoMicros(new Date()));
    const model = requireModel(NODE_MODEL);
    const root = nodes.root();
    if (!root) throw new Error('the bench store has no root node');
    const addNode = (parent: { pkid: string; path: string }, name: string, nodeType: string): { pkid: string; path: string } => {
      const pkid = newPkid();
      const data = { name, node_type: nodeType, description: `Bench ${nodeType.toLowerCase()} ${name}` };
      instances.insert({ pkid, modelType: NODE_MODEL, hierarchyPkid: parent.pkid, data, bkey: businessKeyOf(model, data, parent.pkid) });
      const path = `${parent.path}.${name}`;
      nodes.insert({ pkid, parent_pkid: parent.pkid, name, path, node_type: nodeType });
      return { pkid, path };
    };
    const wide = db.transaction(() => {
      const parent = addNode(root, WIDE_NODE_NAME, 'Intermediate');
      // Zero-padded so the API's name order is the numeric order.
      for (let index = 1; index <= children; index += 1) addNode(parent, `Branch${String(index).padStart(5, '0')}`, 'Site');
      return parent;
    })();
    db.exec('ANALYZE');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return { ...wide, children, seconds: (performance.now() - started) / 1000 };
  } finally {
    db.close();
  }
}
