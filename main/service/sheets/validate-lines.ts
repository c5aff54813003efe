import type { JsonObject } from '../api-types';
import { requireModel } from '../models/registry';
import type { InstanceRecord } from '../store/instances-repo';
import { quoted } from './issue-text';
import { inventoryHolder, phoneHolder } from './key-lookup';
import { report, type PhoneInfo, type RowPlan } from './validate-context';
import { keyTaken, ownKey, takeKey, type KeyUse } from './validate-keys';
import { refText } from './validate-overlay';
import { onBranch, type Target } from './validate-target';

/**
 * What a line relation's workflow will need (transactions/workflows/line-relation.ts): its
 * device line's key free across the store, its number Available in the inventory (when the
 * inventory holds it) and given to one line only, and its phone present on the row's branch
 * of the tree with a free line. Bundles need the same for the line they make.
 */
const LINE = 'device/cucm/Line';
const PHONE = 'device/cucm/Phone';
/** transactions/workflows/line-parts.ts refuses a 25th line on a phone. */
const MAX_LINES = 24;

const text = (data: JsonObject | undefined, field: string): string => String(data?.[field] ?? '');

export function deviceLineKey(pattern: string, partition: string, selfPkid?: string): KeyUse {
  return {
    selfPkid,
    modelType: LINE,
    key: JSON.stringify([pattern, partition]),
    scope: 'global',
    at: 'pattern',
    subject: `The device line ${pattern} in route partition ${quoted(partition)}`,
    advice: 'a number and partition can be on one line only; pick another number or partition',
  };
}

/** Takes (or refuses) the line's device key: the relation's own key was already checked free. */
export function takeLineKey(plan: RowPlan, data: JsonObject, selfPkid?: string): void {
  if (plan.bad.has('pattern') || plan.bad.has('routePartitionName')) return;
  const use = deviceLineKey(text(data, 'pattern'), text(data, 'routePartitionName'), selfPkid);
  if (keyTaken(plan.check, plan.node, use)) plan.bad.add('pattern');
  else plan.commits.push(() => takeKey(plan.check, plan.node, use));
}

export function takeNumber(plan: RowPlan, pattern: string, at: string): void {
  const { check, node } = plan;
  if (pattern === '' || plan.bad.has(at)) return;
  const entry = inventoryHolder(check.store, node.path, pattern);
  if (!entry) return;
  const earlier = check.overlay.inventoryState(entry.pkid);
  const status = earlier?.status ?? entry.status;
  if (status === 'Available') {
    plan.commits.push(() => check.overlay.setInventory(entry.pkid, 'Used', check.ref));
  } else if (earlier) {
    report(
      check,
      at,
      'error',
      'duplicate-number',
      `${pattern} is already given to a line by ${refText(earlier.ref, check.sheet.name)}: use each number once`,
    );
  } else {
    report(
      check,
      at,
      'error',
      'number-not-available',
      `${pattern} is ${status} in the number inventory at ${entry.hierarchyPath}; pick an Available number`,
    );
  }
}

export function freeNumber(plan: RowPlan, pattern: string): void {
  const entry = pattern ? inventoryHolder(plan.check.store, plan.node.path, pattern) : undefined;
  if (entry) plan.commits.push(() => plan.check.overlay.setInventory(entry.pkid, 'Available', plan.check.ref));
}

function storedPhone(plan: RowPlan, name: string): PhoneInfo | null {
  const { cache, store } = plan.check;
  if (!cache.phones.has(name)) {
    const phone = phoneHolder(store, name);
    cache.phones.set(name, phone ? { pkid: phone.pkid, path: phone.hierarchyPath, lines: phone.lines } : null);
  }
  return cache.phones.get(name) ?? null;
}

/** The phone a line goes on: stored or added by an earlier row, on the row's branch, with a line free. */
export function usePhone(plan: RowPlan, name: string, at: string): void {
  const { check, node } = plan;
  if (name === '' || plan.bad.has(at)) return;
  const stored = storedPhone(plan, name);
  const present = stored && check.overlay.goneBy(stored.pkid) === undefined && onBranch(node.path, stored.path);
  const added = !present && check.overlay.findAdded(PHONE, JSON.stringify([name]), (path) => onBranch(node.path, path));
  if (!present && !added) {
    report(
      check,
      at,
      'error',
      'device-not-found',
      `no phone named ${quoted(name)} at ${node.path}, above or below it: add the phone first (in an earlier row or sheet) or correct the device name`,
    );
    return;
  }
  const lines = (present ? stored.lines : 0) + check.overlay.linesAdded(name);
  if (lines >= MAX_LINES) {
    report(
      check,
      at,
      'error',
      'device-full',
      `phone ${name} already has ${MAX_LINES} lines, the most a phone takes: put this line on another phone`,
    );
    return;
  }
  plan.commits.push(() => check.overlay.addLines(name, 1));
}

export function lineRelationAdd(plan: RowPlan, data: JsonObject): void {
  takeLineKey(plan, data);
  takeNumber(plan, text(data, 'pattern'), 'pattern');
  usePhone(plan, text(data, 'summary_device'), 'summary_device');
}

export function lineRelationModify(plan: RowPlan, before: InstanceRecord | undefined, data: JsonObject): void {
  if (!before) {
    usePhone(plan, text(data, 'summary_device'), 'summary_device');
    return;
  }
  const [oldPattern, newPattern] = [text(before.data, 'pattern'), text(data, 'pattern')];
  const partitionChanged = text(before.data, 'routePartitionName') !== text(data, 'routePartitionName');
  if (oldPattern !== newPattern || partitionChanged) takeLineKey(plan, data, before.links.device?.[0]?.pkid);
  if (oldPattern !== newPattern) {
    takeNumber(plan, newPattern, 'pattern');
    freeNumber(plan, oldPattern);
  }
  const [oldDevice, newDevice] = [text(before.data, 'summary_device'), text(data, 'summary_device')];
  if (oldPattern === newPattern && !partitionChanged && oldDevice === newDevice) return;
  usePhone(plan, newDevice, 'summary_device');
  if (oldDevice) plan.commits.push(() => plan.check.overlay.addLines(oldDevice, -1));
}

export function lineRelationRemove(plan: RowPlan, target: Target): void {
  if (target.kind !== 'stored') return;
  const { data, links } = target.record;
  freeNumber(plan, text(data, 'pattern'));
  const linePkid = links.device?.[0]?.pkid;
  if (linePkid) plan.commits.push(() => plan.check.overlay.markGone(linePkid, plan.check.ref));
  const device = text(data, 'summary_device');
  if (device) plan.commits.push(() => plan.check.overlay.addLines(device, -1));
}

/** A bundle makes a subscriber, a phone and a line relation in one transaction: all their keys must be free. */
export function bundleAdd(plan: RowPlan, data: JsonObject): void {
  const [userid, device, pattern] = [text(data, 'userid'), text(data, 'device_name'), text(data, 'pattern')];
  const relation = ownKey(requireModel('relation/LineRelation'), { pattern, routePartitionName: '' }, plan.node);
  const uses: KeyUse[] = [
    {
      modelType: 'relation/Subscriber',
      key: JSON.stringify([userid]),
      scope: 'global',
      at: 'userid',
      subject: `A subscriber with userid ${quoted(userid)}`,
      advice: 'pick another userid',
    },
    {
      modelType: PHONE,
      key: JSON.stringify([device]),
      scope: 'global',
      at: 'device_name',
      subject: `A phone named ${quoted(device)}`,
      advice: 'pick another device name',
    },
    { ...relation, at: 'pattern' },
    deviceLineKey(pattern, ''),
  ];
  for (const use of uses) {
    if (plan.bad.has(use.at)) continue;
    if (keyTaken(plan.check, plan.node, use)) plan.bad.add(use.at);
    else plan.commits.push(() => takeKey(plan.check, plan.node, use));
  }
  takeNumber(plan, pattern, 'pattern');
  plan.commits.push(() => plan.check.overlay.addLines(device, 1));
}

export function bundleModify(plan: RowPlan, before: InstanceRecord | undefined, data: JsonObject): void {
  for (const field of ['userid', 'device_name', 'pattern']) {
    if (before && data[field] !== undefined && text(before.data, field) !== text(data, field)) {
      report(plan.check, field, 'error', 'cannot-change', `a bundle's ${field} cannot be changed: delete the bundle and add it again`);
    }
  }
}

export function bundleRemove(plan: RowPlan, target: Target): void {
  if (target.kind !== 'stored') return;
  freeNumber(plan, text(target.record.data, 'pattern'));
  for (const link of target.record.links.device ?? []) plan.commits.push(() => plan.check.overlay.markGone(link.pkid, plan.check.ref));
}
