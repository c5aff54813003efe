import type { Json, JsonObject } from '../api-types';
import type { InstanceImage } from '../store/change-journal';
import type { InstanceRecord } from '../store/instances-repo';
import { replaceInstance } from './instance-ops';
import type { Store } from './store';

/**
 * What a revert's row puts back exactly once its workflow has run (issue 33: every instance as it
 * was, byte for byte). A workflow remakes an instance from the row's cells, which cannot say
 * everything a stored document holds: the order of its fields, a null, its tags, where a line
 * stood among a phone's lines. So, after it:
 * - the row's own instance takes its stored image again (document, links whose instances exist,
 *   tags, version tag), when the row still gives what the revert wrote (an engineer who changed a
 *   cell of the row meant that value: then the row stays as the workflow made it);
 * - each instance its workflow changed beside it (a number, a phone) takes its image again when
 *   it holds the same values in another order (anything else is left as the workflow made it).
 */
export interface RestoreImages {
  /** The row's own instance before the load; null when the load made it (the revert deletes it). */
  before: InstanceImage | null;
  sides: { pkid: string; before: InstanceImage }[];
}

export function restoreImages(store: Store, pkid: string | null, restore: RestoreImages, rowData: JsonObject): void {
  const own = pkid === null ? undefined : store.instances.get(pkid);
  if (own && restore.before && givesOnly(rowData, restore.before.data)) putBack(store, own, restore.before);
  for (const side of restore.sides) {
    const now = store.instances.get(side.pkid);
    if (now && now.hierarchyPkid === side.before.hierarchyPkid && canonical(now.data) === canonical(side.before.data))
      putBack(store, now, side.before);
  }
}

function putBack(store: Store, record: InstanceRecord, image: InstanceImage): void {
  // A link to an instance that is not there (any more) is never made: the workflow's links stay.
  const linked = Object.values(image.links).flatMap((refs) => refs ?? []);
  const links = linked.every((ref) => store.instances.get(ref.pkid) !== undefined) ? image.links : record.links;
  if (JSON.stringify(record.data) !== JSON.stringify(image.data) || JSON.stringify(record.links) !== JSON.stringify(links))
    replaceInstance(store, record, image.data, { links });
  if (JSON.stringify(record.tags) !== JSON.stringify(image.tags)) store.instances.setTags(record.pkid, image.tags);
  if (record.versionTag !== image.versionTag) store.instances.setVersionTag(record.pkid, image.versionTag);
}

/** True when every value `given` holds (nested) is the image's value there. */
function givesOnly(given: Json, image: Json | undefined): boolean {
  if (isObject(given)) return isObject(image) && Object.entries(given).every(([name, value]) => givesOnly(value, image[name]));
  return canonical(given) === canonical(image);
}

/** A value's JSON with object keys sorted and array elements in a sorted order: equal for the same values in any order. */
function canonical(value: Json | undefined): string {
  if (Array.isArray(value)) return `[${value.map(canonical).sort().join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonical(value[name])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
