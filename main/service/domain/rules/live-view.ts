import type { JsonObject } from '../../api-types';
import type { ModelDef } from '../../models/types';
import type { InstanceRecord } from '../../store/instances-repo';
import type { NodeRow } from '../../store/nodes-repo';
import { businessKeyOf, onBranch } from '../business-key';
import { isWithin } from '../hierarchy';
import type { Store } from '../store';
import { keyProblem } from './keys';
import { throwIfProblem } from './problem';
import type { KeyHolding, KeyScope, NodeHoldings, NumberEntry, PhoneEntry, RulesView } from './rules-view';

/**
 * The rules' read interface over the live store, as the workflows see it inside their
 * transaction. The entries it answers carry the stored record, which the workflow then changes.
 */
const INVENTORY = 'data/InternalNumberInventory';
const PHONE = 'device/cucm/Phone';

export interface LiveNumberEntry extends NumberEntry {
  record: InstanceRecord;
}

export interface LivePhoneEntry extends PhoneEntry {
  record: InstanceRecord;
  lineList: JsonObject[];
}

/** What a hierarchy node holds, read from the store (both views answer it this way: earlier rows do not change it). */
export function storedHoldings(store: Store, node: NodeRow): NodeHoldings {
  const children = store.nodes.childrenOf(node.pkid);
  // A child node's own instance sits at its parent: it is counted as a child, not as a resource.
  const resources = store.instances.countByModelAt(node.pkid).filter((entry) => entry.modelType !== 'data/HierarchyNode');
  return { children: children.length, childNames: children.slice(0, 10).map((child) => child.name), resources };
}

export class LiveRulesView implements RulesView {
  constructor(private readonly store: Store) {}

  seenFrom(node: NodeRow): string {
    return node.path;
  }

  keyHolder(modelType: string, key: string, scope: KeyScope, node: NodeRow, selfPkid?: string | null): KeyHolding | undefined {
    return this.store.instances
      .findByKey(modelType, key)
      .find((other) => other.pkid !== selfPkid && (scope !== 'up' || onBranch(node.path, other.hierarchyPath)));
  }

  numberEntry(node: NodeRow, pattern: string): LiveNumberEntry | undefined {
    const record = this.store.instances
      .findByKey(INVENTORY, JSON.stringify([pattern]))
      .filter((entry) => isWithin(node.path, entry.hierarchyPath))
      .sort((a, b) => b.hierarchyPath.length - a.hierarchyPath.length)[0];
    if (!record) return undefined;
    return { pkid: record.pkid, hierarchyPath: record.hierarchyPath, status: String(record.data.status ?? 'Available'), record };
  }

  phoneOnBranch(node: NodeRow, name: string): LivePhoneEntry | undefined {
    const record = this.store.instances.findByKey(PHONE, JSON.stringify([name]))[0];
    if (!record || !onBranch(node.path, record.hierarchyPath)) return undefined;
    const lineList = Array.isArray(record.data.lines) ? (record.data.lines as JsonObject[]) : [];
    return { lines: lineList.length, record, lineList };
  }

  nodeHoldings(node: NodeRow): NodeHoldings {
    return storedHoldings(this.store, node);
  }
}

const views = new WeakMap<Store, LiveRulesView>();

/** The live view of a store, made once per store. */
export function liveRulesView(store: Store): LiveRulesView {
  let view = views.get(store);
  if (!view) views.set(store, (view = new LiveRulesView(store)));
  return view;
}

/**
 * Refuses a second instance with the same business key, within the node (per-node keys), on
 * the node's line up and down the tree (inventory numbers), or anywhere (global keys): 409.
 * Answers the key, for the write that follows.
 */
export function assertUniqueKey(store: Store, model: ModelDef, data: JsonObject, node: NodeRow, selfPkid: string | null): string {
  const key = businessKeyOf(model, data, node.pkid);
  throwIfProblem(keyProblem(liveRulesView(store), model, data, node, selfPkid, key));
  return key;
}
