import type { JsonObject } from '../api-types';
import { conflict } from '../errors';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';
import type { Store } from './store';
import { isWithin } from './hierarchy';

function scopeOf(model: ModelDef): 'node' | 'up' | 'global' {
  return model.businessKey.scope ?? (model.businessKey.hierarchy ? 'node' : 'global');
}

/** The stored key string: the key fields' values, prefixed by the node when the key is per node. */
export function businessKeyOf(model: ModelDef, data: JsonObject, hierarchyPkid: string): string {
  const values = JSON.stringify(model.businessKey.fields.map((field) => data[field] ?? ''));
  return scopeOf(model) === 'node' ? `${hierarchyPkid}:${values}` : values;
}

/**
 * Refuses a second instance with the same business key, within the node (per-node keys), on
 * the node's line up and down the tree (inventory numbers), or anywhere (global keys).
 */
export function assertUniqueKey(store: Store, model: ModelDef, data: JsonObject, node: NodeRow, selfPkid: string | null): string {
  const key = businessKeyOf(model, data, node.pkid);
  const clash = store.instances
    .findByKey(model.modelType, key)
    .find(
      (other) =>
        other.pkid !== selfPkid &&
        (scopeOf(model) !== 'up' || isWithin(node.path, other.hierarchyPath) || isWithin(other.hierarchyPath, node.path)),
    );
  if (clash) {
    const described = model.businessKey.fields.map((field) => `${field} '${String(data[field] ?? '')}'`).join(' and ');
    const place = clashInSight(node.path, clash.hierarchyPath)
      ? `at ${clash.hierarchyPath} (pkid ${clash.pkid})`
      : 'elsewhere in the hierarchy';
    throw conflict(`${model.title} with ${described} already exists ${place}.`);
  }
  return key;
}

/**
 * Whether the caller may be told where a clashing instance is: `seenFrom` is the caller's
 * node, or, where the caller is not known, the node written at (in the caller's reach, so every
 * node on its branch is readable, ancestors with traversal=up). A global key (a phone's name) can
 * clash at a sibling site, whose path and pkid stay unsaid (decisions.md: no path in a message
 * the caller may not see).
 */
export function clashInSight(seenFrom: string, clashPath: string): boolean {
  return isWithin(seenFrom, clashPath) || isWithin(clashPath, seenFrom);
}
