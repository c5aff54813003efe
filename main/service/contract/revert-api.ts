/**
 * The wire shapes of reverting a load, `/workstation/transactions/<id>/revert/` (README:
 * Reverting a load). Types only: the service, the renderer and the tests import them.
 */
import type { PlanTotals, WorkbookInfo, WorkbookState } from './workbook-api';

/**
 * POST /workstation/transactions/<id>/revert/ (202): the revert plan of a finished bulk load, a
 * staged workbook of its own, answered while it is staged; it is then planned by itself (its
 * `plan` totals, conflicts and errors included, are on the workbook once its state is `planned`).
 * A row whose target changed since the load is a `conflict` in that plan: its `changes` give each
 * field's value after the load (`old`) and now (`new`).
 */
export interface RevertAnswer {
  success: true;
  /** The load it reverts. */
  transaction_id: string;
  /** The revert's rows: one per instance the load added, changed or deleted. */
  rows: number;
  /** Rows of the load that succeeded but cannot be reverted: they ran before loads kept what each row changed. */
  not_revertable: number;
  /** Rows of the load that failed: they changed nothing, and have nothing to revert. */
  failed_rows: number;
  workbook: WorkbookInfo;
}

/** A revert of a load, as the load's link lists it. */
export interface RevertInfo {
  workbook_id: string;
  name: string;
  state: WorkbookState;
  plan: { revision: number; totals: PlanTotals } | null;
  /** The revert's loads (bulk-load transactions), first to last. */
  loads: string[];
}

/** GET /workstation/transactions/<id>/revert/: a load's reverts, and for a revert's own load the load it reverts. */
export interface RevertLink {
  transaction_id: string;
  reverted_by: RevertInfo[];
  /** The load this transaction (a revert workbook's load) reverts; null otherwise. */
  reverts: string | null;
}
