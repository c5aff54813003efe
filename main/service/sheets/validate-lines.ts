import type { JsonObject } from '../api-types';
import { BUNDLE_KEY_FIELDS, bundleChangeProblems, bundleParts, type BundleParts } from '../domain/rules/bundles';
import { numberProblem } from '../domain/rules/numbers';
import { phoneProblem } from '../domain/rules/phones';
import { requireModel } from '../models/registry';
import type { InstanceRecord } from '../store/instances-repo';
import { inventoryHolder } from './key-lookup';
import { otherFormWarning } from './number-forms';
import { reportProblem, type RowPlan } from './validate-context';
import { keyTaken } from './validate-keys';
import type { Target } from './validate-target';

/**
 * What a line relation's workflow will need (transactions/workflows/line-relation.ts), by the
 * workflow's own rules (domain/rules/) read over the overlay: its device line's key free across
 * the store, its number Available in the inventory (when the inventory holds it) and given to
 * one line only, and its phone present on the row's branch of the tree with a free line.
 * Bundles need the same for the line they make. What the row would change goes to the overlay.
 */
const LINE = 'device/cucm/Line';
const PHONE = 'device/cucm/Phone';

const text = (data: JsonObject | undefined, field: string): string => String(data?.[field] ?? '');

/** Takes (or refuses) the line's device key: the relation's own key was already checked free. */
export function takeLineKey(plan: RowPlan, data: JsonObject, selfPkid?: string): void {
  if (plan.bad.has('pattern') || plan.bad.has('routePartitionName')) return;
  // The line's key fields are the relation's own (pattern, routePartitionName).
  if (keyTaken(plan, requireModel(LINE), data, selfPkid, 'pattern')) plan.bad.add('pattern');
}

export function takeNumber(plan: RowPlan, pattern: string, at: string): void {
  const { check, node } = plan;
  if (pattern === '' || plan.bad.has(at)) return;
  const entry = plan.rules.numberEntry(node, pattern);
  if (!entry) return otherFormWarning(check, plan.rules, node, pattern, at);
  const problem = numberProblem(entry, pattern, at);
  if (problem) reportProblem(check, problem);
  else plan.commits.push(() => check.overlay.setInventory(entry.pkid, 'Used', check.ref));
}

export function freeNumber(plan: RowPlan, pattern: string): void {
  const entry = pattern ? inventoryHolder(plan.check.store, plan.node.path, pattern) : undefined;
  if (entry) plan.commits.push(() => plan.check.overlay.setInventory(entry.pkid, 'Available', plan.check.ref));
}

/** The phone a line goes on: stored or added by an earlier row, on the row's branch, with a line free. */
export function usePhone(plan: RowPlan, name: string, at: string): void {
  const { check, node } = plan;
  if (name === '' || plan.bad.has(at)) return;
  const problem = phoneProblem(plan.rules.phoneOnBranch(node, name), node, name, at);
  if (problem) reportProblem(check, problem);
  else plan.commits.push(() => check.overlay.addLines(name, 1));
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

/** The models of a bundle's parts, in the order the workflow makes them. */
const BUNDLE_MODELS: [keyof BundleParts, string][] = [
  ['subscriber', 'relation/Subscriber'],
  ['phone', PHONE],
  ['relation', 'relation/LineRelation'],
];

/** A bundle makes a subscriber, a phone and a line relation (with its device line) in one transaction: all their keys must be free. */
export function bundleAdd(plan: RowPlan, data: JsonObject): void {
  const parts = bundleParts(data);
  for (const [part, modelType] of BUNDLE_MODELS) {
    const at = BUNDLE_KEY_FIELDS[part];
    if (!plan.bad.has(at) && keyTaken(plan, requireModel(modelType), parts[part], undefined, at)) plan.bad.add(at);
  }
  if (!plan.bad.has('pattern') && keyTaken(plan, requireModel(LINE), parts.relation, undefined, 'pattern')) plan.bad.add('pattern');
  takeNumber(plan, text(data, 'pattern'), 'pattern');
  plan.commits.push(() => plan.check.overlay.addLines(text(data, 'device_name'), 1));
}

export function bundleModify(plan: RowPlan, before: InstanceRecord | undefined, data: JsonObject): void {
  if (!before) return;
  for (const problem of bundleChangeProblems(before.data, data)) reportProblem(plan.check, problem);
}

export function bundleRemove(plan: RowPlan, target: Target): void {
  if (target.kind !== 'stored') return;
  freeNumber(plan, text(target.record.data, 'pattern'));
  for (const link of target.record.links.device ?? []) plan.commits.push(() => plan.check.overlay.markGone(link.pkid, plan.check.ref));
}
