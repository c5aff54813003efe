import type { JsonObject } from '../api-types';
import type { ModelDef } from '../models/types';
import { isWithin } from './hierarchy';

/**
 * Where a model's key is unique: within the node ('node'), on the node's line up and down the
 * tree ('up', inventory numbers), or anywhere ('global').
 */
export function scopeOf(model: ModelDef): 'node' | 'up' | 'global' {
  return model.businessKey.scope ?? (model.businessKey.hierarchy ? 'node' : 'global');
}

/** The stored key string: the key fields' values, prefixed by the node when the key is per node. */
export function businessKeyOf(model: ModelDef, data: JsonObject, hierarchyPkid: string): string {
  const values = JSON.stringify(model.businessKey.fields.map((field) => data[field] ?? ''));
  return scopeOf(model) === 'node' ? `${hierarchyPkid}:${values}` : values;
}

/** Whether two paths lie on one branch of the tree: one is the other or above it. */
export const onBranch = (a: string, b: string): boolean => isWithin(a, b) || isWithin(b, a);

/**
 * Whether the caller may be told where a clashing instance is: `seenFrom` is the caller's
 * node, or, where the caller is not known, the node written at (in the caller's reach, so every
 * node on its branch is readable, ancestors with traversal=up). A global key (a phone's name) can
 * clash at a sibling site, whose path and pkid stay unsaid (decisions.md: no path in a message
 * the caller may not see).
 */
export function clashInSight(seenFrom: string, clashPath: string): boolean {
  return onBranch(seenFrom, clashPath);
}
