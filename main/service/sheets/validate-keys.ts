import type { JsonObject } from '../api-types';
import { businessKeyOf, clashInSight } from '../domain/business-key';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';
import { quoted } from './issue-text';
import { keyHolders } from './key-lookup';
import { report, type RowCheck } from './validate-context';
import { refText } from './validate-overlay';
import { onBranch } from './validate-target';

/**
 * Business keys a row would take: the model's own, and those of the instances its workflow
 * makes on the way (a line relation's device line, a bundle's subscriber and phone). A key is
 * refused when the store holds it (and no earlier row deletes that instance), or when an
 * earlier row of the workbook already takes it: the second row is the one reported.
 */
export interface KeyUse {
  modelType: string;
  key: string;
  scope: 'node' | 'up' | 'global';
  /** Field path the issue is placed at. */
  at: string;
  /** What the key names, for messages: "Line Relation with pattern '+33140001050' and routePartitionName ''". */
  subject: string;
  /** What to do about a clash with the store. */
  advice: string;
  /** A modify keeps its own key. */
  selfPkid?: string;
}

const scopeOf = (model: ModelDef): KeyUse['scope'] => model.businessKey.scope ?? (model.businessKey.hierarchy ? 'node' : 'global');

export function describeKey(model: ModelDef, data: JsonObject): string {
  const values = model.businessKey.fields.map((field) => `${field} ${quoted(String(data[field] ?? ''))}`).join(' and ');
  return `${model.title} with ${values}`;
}

/** The model's own key for this data at this node. */
export function ownKey(model: ModelDef, data: JsonObject, node: NodeRow, selfPkid?: string): KeyUse {
  return {
    modelType: model.modelType,
    key: businessKeyOf(model, data, node.pkid),
    scope: scopeOf(model),
    at: model.businessKey.fields[0],
    subject: describeKey(model, data),
    advice: 'set Action to modify to change it, or pick another value',
    selfPkid,
  };
}

/** Reports a clash and answers true; answers false when the key is free. */
export function keyTaken(check: RowCheck, node: NodeRow, use: KeyUse): boolean {
  const branch = use.scope === 'up' ? (path: string): boolean => onBranch(node.path, path) : undefined;
  const earlier = check.overlay.findAdded(use.modelType, use.key, branch);
  if (earlier) {
    report(
      check,
      use.at,
      'error',
      'duplicate-in-workbook',
      `${use.subject} is already added by ${refText(earlier.ref, check.sheet.name)}: each can be added once`,
    );
    return true;
  }
  const stored = keyHolders(check.store, use.modelType, use.key).find(
    (record) =>
      record.pkid !== use.selfPkid && check.overlay.goneBy(record.pkid) === undefined && (!branch || branch(record.hierarchyPath)),
  );
  if (stored) {
    // A global key can be held at a sibling site: its path is named only to a caller who may see it.
    const place = clashInSight(check.caller.callerPath, stored.hierarchyPath) ? `at ${stored.hierarchyPath}` : 'elsewhere in the hierarchy';
    report(check, use.at, 'error', 'duplicate-in-store', `${use.subject} already exists ${place}: ${use.advice}`);
    return true;
  }
  return false;
}

export function takeKey(check: RowCheck, node: NodeRow, use: KeyUse): void {
  check.overlay.addKey(use.modelType, use.key, node.path, check.ref);
}
