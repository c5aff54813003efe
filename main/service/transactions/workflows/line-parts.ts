import type { JsonObject } from '../../api-types';
import { findByGlobalKey, insertInstance, replaceInstance } from '../../domain/instance-ops';
import { liveRulesView, type LiveNumberEntry } from '../../domain/rules/live-view';
import { numberProblem } from '../../domain/rules/numbers';
import { phoneProblem } from '../../domain/rules/phones';
import { throwIfProblem } from '../../domain/rules/problem';
import type { Store } from '../../domain/store';
import { requireModel } from '../../models/registry';
import { linkTo, type InstanceRecord } from '../../store/instances-repo';
import type { NodeRow } from '../../store/nodes-repo';

/**
 * The pieces a line relation (and a bundle) is made of: the device line, its number in the
 * internal number inventory, and the phone it sits on. Each throws an ApiError to fail its step.
 */
const LINE = 'device/cucm/Line';
const PHONE = 'device/cucm/Phone';

export const patternOf = (data: JsonObject): string => String(data.pattern ?? '');
export const partitionOf = (data: JsonObject): string => String(data.routePartitionName ?? '');

/** The device line's fields, taken from the relation's. */
export function lineDataOf(relation: JsonObject): JsonObject {
  const lineFields = requireModel(LINE).fields;
  const data: JsonObject = {};
  for (const [name, value] of Object.entries(relation)) {
    if (Object.hasOwn(lineFields, name) && value !== undefined) data[name] = value;
  }
  return data;
}

/** `previousPkid`: the pkid the line had, when a revert makes it again (used when no instance holds it). */
export function addDeviceLine(store: Store, node: NodeRow, relation: JsonObject, ownerPkid: string, previousPkid?: string): string {
  const pkid = previousPkid !== undefined && store.instances.get(previousPkid) === undefined ? previousPkid : undefined;
  return insertInstance(store, requireModel(LINE), node, lineDataOf(relation), {
    pkid,
    links: { owner: [linkTo(ownerPkid, 'relation/LineRelation')] },
  });
}

export function deviceLineOf(store: Store, relation: InstanceRecord): InstanceRecord | undefined {
  const linePkid = relation.links.device?.[0]?.pkid;
  return linePkid ? store.instances.get(linePkid) : undefined;
}

/** The inventory entry of a number, at the node or the nearest ancestor holding it. */
export function inventoryEntry(store: Store, node: NodeRow, pattern: string): LiveNumberEntry | undefined {
  return liveRulesView(store).numberEntry(node, pattern);
}

export function notInInventory(store: Store, node: NodeRow, pattern: string): string | null {
  return inventoryEntry(store, node, pattern)
    ? null
    : `number ${pattern} is not in the internal number inventory at ${node.path} or above.`;
}

/** Marks a number Used; a number already Used, Reserved or Cooling is refused (domain/rules/numbers.ts). */
export function markNumberUsed(store: Store, node: NodeRow, pattern: string, usage: string): void {
  const entry = inventoryEntry(store, node, pattern);
  if (!entry) return;
  throwIfProblem(numberProblem(entry, pattern));
  replaceInstance(store, entry.record, { ...entry.record.data, status: 'Used', usage });
}

export function releaseNumber(store: Store, node: NodeRow, pattern: string): void {
  const entry = inventoryEntry(store, node, pattern);
  if (entry) replaceInstance(store, entry.record, { ...entry.record.data, status: 'Available', usage: '' });
}

/** Puts a line on its phone: the phone on the relation's branch of the tree, with a line free (domain/rules/phones.ts). */
export function attachLine(store: Store, node: NodeRow, phoneName: string, pattern: string, partition: string): void {
  const phone = liveRulesView(store).phoneOnBranch(node, phoneName);
  throwIfProblem(phoneProblem(phone, node, phoneName));
  if (!phone) return;
  replaceInstance(store, phone.record, { ...phone.record.data, lines: [...phone.lineList, { pattern, routePartitionName: partition }] });
}

export function detachLine(store: Store, phoneName: string, pattern: string, partition: string): void {
  const phone = findByGlobalKey(store, PHONE, [phoneName]);
  if (!phone) return;
  const lines = Array.isArray(phone.data.lines) ? phone.data.lines : [];
  const kept = lines.filter((line) => {
    const entry = line as JsonObject;
    return !(entry.pattern === pattern && String(entry.routePartitionName ?? '') === partition);
  });
  replaceInstance(store, phone, { ...phone.data, lines: kept });
}
