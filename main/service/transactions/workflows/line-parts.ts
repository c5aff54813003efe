import type { JsonObject } from '../../api-types';
import { ApiError, conflict, notFound } from '../../errors';
import { isWithin } from '../../domain/hierarchy';
import { findByGlobalKey, insertInstance, replaceInstance } from '../../domain/instance-ops';
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
const INVENTORY = 'data/InternalNumberInventory';

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

export function addDeviceLine(store: Store, node: NodeRow, relation: JsonObject, ownerPkid: string): string {
  return insertInstance(store, requireModel(LINE), node, lineDataOf(relation), {
    links: { owner: [linkTo(ownerPkid, 'relation/LineRelation')] },
  });
}

export function deviceLineOf(store: Store, relation: InstanceRecord): InstanceRecord | undefined {
  const linePkid = relation.links.device?.[0]?.pkid;
  return linePkid ? store.instances.get(linePkid) : undefined;
}

/** The inventory entry of a number, at the node or the nearest ancestor holding it. */
export function inventoryEntry(store: Store, node: NodeRow, pattern: string): InstanceRecord | undefined {
  return store.instances
    .findByKey(INVENTORY, JSON.stringify([pattern]))
    .filter((entry) => isWithin(node.path, entry.hierarchyPath))
    .sort((a, b) => b.hierarchyPath.length - a.hierarchyPath.length)[0];
}

export function notInInventory(store: Store, node: NodeRow, pattern: string): string | null {
  return inventoryEntry(store, node, pattern)
    ? null
    : `number ${pattern} is not in the internal number inventory at ${node.path} or above.`;
}

/** Marks a number Used; a number already Used, Reserved or Cooling is refused. */
export function markNumberUsed(store: Store, node: NodeRow, pattern: string, usage: string): void {
  const entry = inventoryEntry(store, node, pattern);
  if (!entry) return;
  const status = String(entry.data.status ?? 'Available');
  if (status !== 'Available') {
    throw conflict(
      `Directory number ${pattern} is ${status} in the internal number inventory at ${entry.hierarchyPath}; choose an Available number.`,
    );
  }
  replaceInstance(store, entry, { ...entry.data, status: 'Used', usage });
}

export function releaseNumber(store: Store, node: NodeRow, pattern: string): void {
  const entry = inventoryEntry(store, node, pattern);
  if (entry) replaceInstance(store, entry, { ...entry.data, status: 'Available', usage: '' });
}

/** The phone must sit on the relation's branch of the tree: its node, above it or below it. */
export function requirePhone(store: Store, node: NodeRow, name: string): InstanceRecord {
  const phone = findByGlobalKey(store, PHONE, [name]);
  if (!phone || !(isWithin(node.path, phone.hierarchyPath) || isWithin(phone.hierarchyPath, node.path))) {
    throw notFound(`Device ${name} was not found at ${node.path}, above or below it: add the phone first or correct the device name.`);
  }
  return phone;
}

export function attachLine(store: Store, node: NodeRow, phoneName: string, pattern: string, partition: string): void {
  const phone = requirePhone(store, node, phoneName);
  const lines = Array.isArray(phone.data.lines) ? phone.data.lines : [];
  if (lines.length >= 24) throw new ApiError(409, 'conflict', `Device ${phoneName} already has 24 lines.`);
  replaceInstance(store, phone, { ...phone.data, lines: [...lines, { pattern, routePartitionName: partition }] });
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
