import type { JsonObject } from '../api-types';
import type { PlanAction, PlanChange, PlanTotals } from '../contract/workbook-api';
import { versionOf } from '../domain/instance-version';
import type { ModelDef } from '../models/types';
import type { RowAction } from '../sheets/sheet-types';
import type { InstanceRecord } from '../store/instances-repo';
import type { PlanRecord } from '../store/workbook-runs-repo';
import type { StoredIssue } from './staged-validator';

/**
 * A plan is a full validation against the store as it is now, that also says for each row what
 * the load will do with it, and remembers the version of each row's target: loading a row whose
 * target has another version by then is refused for that row alone (bulkload/row-transaction.ts),
 * so a stale plan is caught row by row, never by one counter for the whole store.
 */
export type PlanEntry = Omit<PlanRecord, 'row_id'>;

/**
 * Errors that say the store holds what the row clashes with (its key taken, its number not
 * Available): the row is right, the world moved. Everything else is the row's own error.
 */
const CONFLICT_CODES = new Set(['duplicate-in-store', 'number-not-available']);

const WRITE_ONLY_SHOWN = '(a new value, not shown)';

/** Each top-level field whose value the row changes, old -> new; write-only fields (passwords) never show a value. */
export function changesOf(model: ModelDef, before: JsonObject, after: JsonObject): PlanChange[] {
  const changes: PlanChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (model.fields[field]?.writeOnly) {
      if (after[field] !== undefined && after[field] !== '') changes.push({ field, new: WRITE_ONLY_SHOWN });
      continue;
    }
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    const change: PlanChange = { field };
    if (before[field] !== undefined) change.old = before[field];
    if (after[field] !== undefined) change.new = after[field];
    changes.push(change);
  }
  return changes;
}

/** What a validated row will do, from its action, its issues and what it works on. */
export function planEntry(
  model: ModelDef,
  action: RowAction,
  issues: readonly StoredIssue[],
  target: { record?: InstanceRecord; after?: JsonObject } | undefined,
): PlanEntry {
  const errors = issues.filter((issue) => issue.severity === 'error');
  const record = target?.record;
  const base = { target_pkid: record?.pkid ?? null, version: record ? versionOf(record) : null, changes: '[]', message: null };
  if (errors.length > 0) {
    const conflict = errors.every((issue) => CONFLICT_CODES.has(issue.code));
    return { ...base, action: conflict ? 'conflict' : 'error', message: errors[0].message };
  }
  if (action !== 'modify') return { ...base, action };
  const changes = changesOf(model, record?.data ?? {}, target?.after ?? {});
  return { ...base, action: changes.length === 0 ? 'unchanged' : 'modify', changes: JSON.stringify(changes) };
}

export const emptyTotals = (): PlanTotals => ({ add: 0, modify: 0, delete: 0, unchanged: 0, conflict: 0, error: 0 });

export function addToTotals(totals: PlanTotals, action: string): void {
  if (Object.hasOwn(totals, action)) totals[action as PlanAction] += 1;
}
