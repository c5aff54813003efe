import type {
  PlanAction,
  PlanChange,
  PlanTotals,
  WorkbookInfo,
  WorkbookLoadInfo,
  WorkbookPlan,
  WorkbookPlanEntry,
  WorkbookRowOutcome,
} from '../contract/workbook-api';
import type { Store } from '../domain/store';
import type { OutcomeRecord, PlanRecord } from '../store/workbook-runs-repo';
import type { WorkbookRecord } from '../store/workbooks-repo';
import { rowNumberOf } from './staged-sheet';
import { LOADED_CHANGED } from './workbook-loaded-rows';

/** The answers about a staged workbook's plan and loads: on the workbook, on each row, and the plan's pages. */
export function planInfo(record: WorkbookRecord): WorkbookInfo['plan'] {
  if (record.plan_revision === null || record.plan_totals === null) return null;
  return { revision: record.plan_revision, totals: JSON.parse(record.plan_totals) as PlanTotals };
}

export function loadInfo(store: Store, record: WorkbookRecord): WorkbookLoadInfo | null {
  if (record.load_id === null) return null;
  const counts = store.workbookOutcomes.counts(record.wb);
  return {
    transaction_id: record.load_id,
    running: record.state === 'loading',
    total: record.load_total,
    loaded: counts.loaded,
    failed: counts.failed,
    conflicts: counts.conflict,
    not_run: Math.max(0, record.load_total - counts.loaded - counts.failed - counts.conflict),
    changed: store.workbookOutcomes.rowsWithCode(record.wb, LOADED_CHANGED),
  };
}

export const planEntryOf = (plan: PlanRecord): WorkbookPlanEntry => ({
  action: plan.action as PlanAction,
  target_pkid: plan.target_pkid,
  changes: JSON.parse(plan.changes) as PlanChange[],
  message: plan.message,
});

export const outcomeOf = (outcome: OutcomeRecord): WorkbookRowOutcome => ({
  status: outcome.status,
  transaction_id: outcome.transaction_id,
  message: outcome.message,
  pkid: outcome.pkid,
});

/** A page of the plan in load order, optionally of one action. */
export function planPage(store: Store, record: WorkbookRecord, skip: number, limit: number, action?: PlanAction): WorkbookPlan {
  const info = planInfo(record);
  const totals = info?.totals ?? { add: 0, modify: 0, delete: 0, unchanged: 0, conflict: 0, error: 0 };
  const sheets = new Map(store.workbooks.sheets(record.wb).map((sheet) => [sheet.sheet_no, sheet]));
  const rows = info ? store.workbookPlan.page(record.wb, skip, limit, action) : [];
  return {
    revision: record.revision,
    planned_revision: record.plan_revision,
    totals,
    total: action === undefined ? Object.values(totals).reduce((sum, n) => sum + n, 0) : totals[action],
    skip,
    rows: rows.map((plan) => ({
      ...planEntryOf(plan),
      sheet: plan.sheet_no,
      row_id: plan.row_id,
      row: rowNumberOf(sheets.get(plan.sheet_no) ?? { directive: null }, plan.idx),
    })),
  };
}
