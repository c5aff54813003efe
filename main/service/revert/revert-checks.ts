import type { JsonObject } from '../api-types';
import type { PlanAction, PlanChange, PlanTotals } from '../contract/workbook-api';
import type { RestoreImages } from '../domain/restore-images';
import type { Store } from '../domain/store';
import { findModel } from '../models/registry';
import type { ParsedRow } from '../sheets/sheet-types';
import type { DriftedEntry } from '../store/reverts-repo';
import type { WorkbookRecord } from '../store/workbooks-repo';
import { TimeSlice } from '../turns';
import type { RevertHooks } from '../workbooks/workbook-runs';

/**
 * What makes a revert workbook more than a workbook (issue 33): its plan and its load know the
 * version the reverted load left each target at. A target at another version has changed since
 * (another edit, a later load): its row is a conflict in the plan, with each field's value now and
 * after the load, and when it runs its target must still be as the load left it, else the row is
 * refused as a conflict (bulkload/row-transaction.ts): never reverted blindly.
 */
export function revertHooks(store: Store): RevertHooks {
  return {
    checkPlan: (record, totals) => checkPlan(store, record, totals),
    rowAdjuster: (record) => rowAdjuster(store, record),
    loadStarted(record, loadId) {
      if (store.reverts.ofWorkbook(record.id)) store.reverts.addLoad(loadId, record.id);
    },
  };
}

/** Row ids a statement: a few thousand plan entries joined at a time, with turns for the event loop between. */
const ROW_RANGE = 2000;
const SHOWN_FIELDS = 3;

/**
 * Turns the plan's clean rows whose target changed since the load into conflicts. The plan read
 * each target's version (on its worker): only the entries where it is not the load's are read
 * here, a range of rows at a time with turns between.
 */
async function checkPlan(store: Store, record: WorkbookRecord, totals: PlanTotals): Promise<void> {
  if (!store.reverts.ofWorkbook(record.id)) return;
  const end = store.workbooks.getByWb(record.wb)?.next_row ?? 0;
  const slice = new TimeSlice();
  for (let from = 0; from < end; from += ROW_RANGE) {
    store.db.transaction(() => {
      for (const entry of store.reverts.drifted(record.id, record.wb, from, from + ROW_RANGE)) {
        const conflict = driftOf(store, entry);
        if (!conflict) continue;
        store.workbookPlan.put(record.wb, {
          ...{ row_id: entry.row_id, target_pkid: entry.target_pkid, version: entry.version },
          ...{ action: 'conflict', ...conflict },
        });
        totals[entry.action as PlanAction] -= 1;
        totals.conflict += 1;
      }
    })();
    await slice.maybeTurn();
  }
}

/** How a target differs from what the load left, or undefined when it is as the load left it after all. */
function driftOf(store: Store, entry: DriftedEntry): { changes: string; message: string } | undefined {
  const pkid = entry.target_pkid ?? '';
  const now = store.instances.get(pkid);
  if (!now) return undefined;
  const after = entry.after === null ? {} : (JSON.parse(entry.after) as JsonObject);
  const changes = changedFields(after, now.data);
  const title = findModel(entry.model_type)?.title ?? entry.model_type;
  const what =
    changes.length === 0
      ? `it was moved to ${now.hierarchyPath}`
      : changes
          .slice(0, SHOWN_FIELDS)
          .map((change) => `${change.field} is ${shown(change.new)} now, ${shown(change.old)} after the load`)
          .join('; ') + (changes.length > SHOWN_FIELDS ? `; and ${changes.length - SHOWN_FIELDS} more field(s)` : '');
  return {
    changes: JSON.stringify(changes),
    message: `${title} ${pkid} changed since the load (${what}): it is not reverted; drop the row, or revert it by hand.`,
  };
}

/** For a conflict: each field whose value differs, `old` as the load left it, `new` as it is now. */
function changedFields(after: JsonObject, now: JsonObject): PlanChange[] {
  const changes: PlanChange[] = [];
  for (const field of new Set([...Object.keys(after), ...Object.keys(now)])) {
    if (JSON.stringify(after[field]) === JSON.stringify(now[field])) continue;
    const change: PlanChange = { field };
    if (after[field] !== undefined) change.old = after[field];
    if (now[field] !== undefined) change.new = now[field];
    changes.push(change);
  }
  return changes;
}

const shown = (value: unknown): string => (value === undefined ? 'empty' : JSON.stringify(value));

/**
 * What each spooled row of a revert workbook expects when it runs: its target as its own last row
 * of the load left it, or, for an instance the load deleted, to be made again under its own pkid;
 * and what it puts back exactly once its workflow has run.
 */
function rowAdjuster(store: Store, record: WorkbookRecord): ((row: ParsedRow) => void) | undefined {
  if (!store.reverts.ofWorkbook(record.id)) return undefined;
  return (row) => {
    if (row.pkid === undefined) return;
    const target = store.reverts.target(record.id, row.pkid);
    if (!target) return;
    if (target.restore !== null) row.restore = JSON.parse(target.restore) as RestoreImages;
    if (target.recreate === 1) {
      if (row.action === 'add') row.recreate = true;
      return;
    }
    // What its own last row left it at: for a shared one too, which the rows before it put back.
    if (target.after_version === null) delete row.expect;
    else row.expect = { pkid: row.pkid, version: target.after_version };
  };
}
