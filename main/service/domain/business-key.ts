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
export function assertUniqueKey(
  store: Store,
  model: ModelDef,
  data: JsonObject,
  node: NodeRow,
  selfPkid: string | null,
): string {
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
    throw conflict(`${model.title} with ${described} already exists at ${clash.hierarchyPath} (pkid ${clash.pkid}).`);
  }
  return key;
}
