import { roleAllows, type Operation } from '../auth/access';
import type { JsonObject } from '../api-types';
import { businessKeyOf, onBranch, scopeOf } from '../domain/business-key';
import { isWithin, wouldBeWithin } from '../domain/hierarchy';
import { keyValues } from '../domain/rules/keys';
import type { Store } from '../domain/store';
import type { ModelDef } from '../models/types';
import type { InstanceRecord } from '../store/instances-repo';
import type { NodeRow } from '../store/nodes-repo';
import { META_NAMES } from './header-resolve';
import { quoted } from './issue-text';
import type { ParsedRow } from './sheet-types';
import { report, type RowCheck } from './validate-context';
import { refText, type RowRef } from './validate-overlay';

/**
 * Where a row runs and what it changes: its hierarchy node (the Hierarchy Node column, else the
 * directive's, else the load's), that node within the caller's reach, the caller's role, and,
 * for modify and delete, the instance it names by pkid or else by business key.
 */
const OPERATIONS: Record<ParsedRow['action'], Operation> = { add: 'create', modify: 'update', delete: 'delete' };

export type Target = { kind: 'stored'; record: InstanceRecord } | { kind: 'pending'; ref: RowRef };

function lookupNode(check: RowCheck, text: string): NodeRow | undefined {
  const { nodes } = check.cache;
  if (!nodes.has(text)) nodes.set(text, check.store.nodes.get(text) ?? check.store.nodes.getByPath(text) ?? null);
  return nodes.get(text) ?? check.overlay.pendingNode(text);
}

export function rowNode(check: RowCheck): NodeRow | undefined {
  const text = check.row.hierarchy ?? check.sheet.directive.hierarchy;
  if (text === undefined) return check.defaultNode;
  const node = lookupNode(check, text);
  if (node) return node;
  const at = check.row.hierarchy === undefined ? '' : META_NAMES.hierarchy;
  // Outside the caller's reach a node that does not exist gets the issue one that exists gets
  // (decisions.md, Identity and hierarchy): else a sheet could list the sites beside the caller's.
  if (!wouldBeWithin(text, check.caller.callerPath)) {
    reportOutOfReach(check, at);
    return undefined;
  }
  const where = check.row.hierarchy === undefined ? ' (from the directive in cell A1)' : '';
  report(
    check,
    at,
    'error',
    'hierarchy-not-found',
    `hierarchy ${quoted(text)}${where} was not found: give a dot path such as sys.hcs.Telco.Acme.Paris, or a node pkid`,
  );
  return undefined;
}

/**
 * The one issue for a row outside the caller's reach. It names only the caller's own node: the
 * row may name the other by pkid, or reach it through an instance, and its path must not show.
 */
function reportOutOfReach(check: RowCheck, at: string): void {
  const { principal, callerPath } = check.caller;
  report(
    check,
    at,
    'error',
    'out-of-reach',
    `${principal.username} works at ${callerPath} and cannot change anything outside it: have this row loaded by a user whose node holds its hierarchy`,
  );
}

/** The node is the caller's or below it, and the caller's role may make this row's change. */
export function mayChangeAt(check: RowCheck, path: string, at: string): boolean {
  const { principal } = check.caller;
  if (!isWithin(path, check.caller.callerPath)) {
    reportOutOfReach(check, at);
    return false;
  }
  const operation = OPERATIONS[check.row.action];
  if (!roleAllows(principal.role, operation) || !roleAllows(principal.role, 'bulkload')) {
    report(
      check,
      '',
      'error',
      'permission-denied',
      `Permission Denied: the ${principal.role} role of ${principal.username} does not allow ${operation} by bulk load`,
    );
    return false;
  }
  return true;
}

/** The stored instance a modify or delete row names by its business key; the nearest one for keys scoped up the tree. */
export function storedByKey(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  data: JsonObject,
  isGone: (pkid: string) => boolean,
): InstanceRecord | undefined {
  const candidates = store.instances
    .findByKey(model.modelType, businessKeyOf(model, data, node.pkid))
    .filter((record) => !isGone(record.pkid) && (scopeOf(model) !== 'up' || onBranch(node.path, record.hierarchyPath)));
  return candidates.sort((a, b) => b.hierarchyPath.length - a.hierarchyPath.length)[0];
}

function byPkid(check: RowCheck, pkid: string): Target | undefined {
  const record = check.store.instances.get(pkid);
  const gone = record && check.overlay.goneBy(pkid);
  if (record && record.modelType === check.model.modelType && !gone) return { kind: 'stored', record };
  const why = gone ? `was deleted by ${refText(gone, check.sheet.name)}` : `is not the pkid of any ${check.model.modelType}`;
  report(
    check,
    META_NAMES.pkid,
    'error',
    'target-not-found',
    `${quoted(pkid)} ${why}: copy the pkid from an export, or leave the cell empty to find the instance by its key`,
  );
  return undefined;
}

/** The instance a modify or delete row changes; reported when there is none. */
export function findTarget(check: RowCheck, node: NodeRow): Target | undefined {
  const { row, model, overlay } = check;
  if (row.pkid !== undefined) return byPkid(check, row.pkid);
  const keyGiven = model.businessKey.fields.some((field) => row.data[field] !== undefined && row.data[field] !== '');
  if (!keyGiven) {
    report(
      check,
      '',
      'error',
      'target-not-found',
      `a ${row.action} row needs the Unique Identifier (pkid) column or the key fields ${model.businessKey.fields.join(', ')} to find the instance`,
    );
    return undefined;
  }
  const record = storedByKey(check.store, model, node, row.data, (pkid) => overlay.goneBy(pkid) !== undefined);
  if (record) return { kind: 'stored', record };
  const key = businessKeyOf(model, row.data, node.pkid);
  const pending = overlay.findAdded(model.modelType, key, scopeOf(model) === 'up' ? (path) => onBranch(node.path, path) : undefined);
  if (pending) return { kind: 'pending', ref: pending.ref };
  report(
    check,
    model.businessKey.fields[0],
    'error',
    'target-not-found',
    `no ${model.title} with ${keyValues(model, row.data)} exists at ${node.path}: check the key values, or give the pkid`,
  );
  return undefined;
}
