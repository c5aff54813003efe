import type { Db } from './db';

/**
 * A staged workbook's plan and load outcomes (migration 0013: `workbook_plan`,
 * `workbook_outcomes`), one row each per workbook row. Both are read in the workbook's row order
 * by joining its rows, so rows deleted since (kept for undo) drop out of pages and counts.
 */
export interface PlanRecord {
  row_id: number;
  action: string;
  target_pkid: string | null;
  /** The target's version when the plan was made (workbooks/workbook-plan.ts `versionOf`). */
  version: string | null;
  /** JSON: PlanChange[]. */
  changes: string;
  message: string | null;
}

export interface OutcomeRecord {
  row_id: number;
  status: 'loaded' | 'failed' | 'conflict';
  transaction_id: string;
  message: string;
  pkid: string | null;
}

/** What a loaded row loaded as: the instance it made or changed, in its sub-transaction. */
export interface LoadedTarget {
  pkid: string;
  transaction_id: string;
}

export class WorkbookPlanRepo {
  private readonly s;

  constructor(db: Db) {
    const p = <P extends unknown[], R = unknown>(text: string) => db.prepare<P, R>(text);
    this.s = {
      clear: p<[number]>('DELETE FROM workbook_plan WHERE wb = ?'),
      insert: p<[number, number, string, string | null, string | null, string, string | null]>(
        'INSERT OR REPLACE INTO workbook_plan (wb, row_id, action, target_pkid, version, changes, message) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      row: p<[number, number], PlanRecord>(
        'SELECT row_id, action, target_pkid, version, changes, message FROM workbook_plan WHERE wb = ? AND row_id = ?',
      ),
      ofRows: p<[number, string], PlanRecord>(
        `SELECT row_id, action, target_pkid, version, changes, message FROM workbook_plan
         WHERE wb = ? AND row_id IN (SELECT value FROM json_each(?))`,
      ),
      page: p<[number, number, number], PlanRecord & { sheet_no: number; idx: number }>(
        `SELECT p.row_id, p.action, p.target_pkid, p.version, p.changes, p.message, r.sheet_no, r.idx
         FROM workbook_plan p JOIN workbook_rows r ON r.wb = p.wb AND r.row_id = p.row_id
         WHERE p.wb = ? ORDER BY r.sheet_no, r.idx LIMIT ? OFFSET ?`,
      ),
      pageOf: p<[number, string, number, number], PlanRecord & { sheet_no: number; idx: number }>(
        `SELECT p.row_id, p.action, p.target_pkid, p.version, p.changes, p.message, r.sheet_no, r.idx
         FROM workbook_plan p JOIN workbook_rows r ON r.wb = p.wb AND r.row_id = p.row_id
         WHERE p.wb = ? AND p.action = ? ORDER BY r.sheet_no, r.idx LIMIT ? OFFSET ?`,
      ),
    };
  }

  clear(wb: number): void {
    this.s.clear.run(wb);
  }

  put(wb: number, plan: PlanRecord): void {
    this.s.insert.run(wb, plan.row_id, plan.action, plan.target_pkid, plan.version, plan.changes, plan.message);
  }

  get(wb: number, rowId: number): PlanRecord | undefined {
    return this.s.row.get(wb, rowId);
  }

  /** The plan entries of a page's rows, in one query (one a row cost a page of 200 rows 1 ms). */
  ofRows(wb: number, rowIds: readonly number[]): Map<number, PlanRecord> {
    return new Map(rowIds.length === 0 ? [] : this.s.ofRows.all(wb, JSON.stringify(rowIds)).map((plan) => [plan.row_id, plan]));
  }

  page(wb: number, skip: number, limit: number, action?: string): (PlanRecord & { sheet_no: number; idx: number })[] {
    return action === undefined ? this.s.page.all(wb, limit, skip) : this.s.pageOf.all(wb, action, limit, skip);
  }
}

export class WorkbookOutcomesRepo {
  private readonly s;

  constructor(db: Db) {
    const p = <P extends unknown[], R = unknown>(text: string) => db.prepare<P, R>(text);
    this.s = {
      put: p<[number, number, string, string, string, string | null]>(
        'INSERT OR REPLACE INTO workbook_outcomes (wb, row_id, status, transaction_id, message, pkid) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      row: p<[number, number], OutcomeRecord>(
        'SELECT row_id, status, transaction_id, message, pkid FROM workbook_outcomes WHERE wb = ? AND row_id = ?',
      ),
      ofRows: p<[number, string], OutcomeRecord>(
        `SELECT row_id, status, transaction_id, message, pkid FROM workbook_outcomes
         WHERE wb = ? AND row_id IN (SELECT value FROM json_each(?))`,
      ),
      counts: p<[number], { status: OutcomeRecord['status']; n: number }>(
        `SELECT o.status, COUNT(*) AS n FROM workbook_outcomes o JOIN workbook_rows r ON r.wb = o.wb AND r.row_id = o.row_id
         WHERE o.wb = ? GROUP BY o.status`,
      ),
      loaded: p<[number], { row_id: number; pkid: string; transaction_id: string }>(
        `SELECT row_id, pkid, transaction_id FROM workbook_outcomes WHERE wb = ? AND status = 'loaded' AND pkid IS NOT NULL`,
      ),
      // A duplicate's rows keep their ids (WorkbooksRepo.copyRows): each loaded row's outcome goes with it, saying by which workbook.
      copyLoaded: p<[number, string, number, number, number]>(
        `INSERT OR REPLACE INTO workbook_outcomes (wb, row_id, status, transaction_id, message, pkid)
         SELECT ?, row_id, 'loaded', transaction_id, ?, pkid FROM workbook_outcomes
         WHERE wb = ? AND status = 'loaded' AND row_id >= ? AND row_id < ?`,
      ),
      changedSinceLoad: p<[number, string], { n: number }>(
        `SELECT COUNT(DISTINCT i.row_id) AS n FROM workbook_issues i JOIN workbook_rows r ON r.wb = i.wb AND r.row_id = i.row_id
         WHERE i.wb = ? AND i.code = ?`,
      ),
    };
  }

  /** The rows that loaded, each with the instance it made or changed and its transaction: a full validation's, in one query. */
  loadedTargets(wb: number): Map<number, LoadedTarget> {
    return new Map(this.s.loaded.all(wb).map((row) => [row.row_id, { pkid: row.pkid, transaction_id: row.transaction_id }]));
  }

  /** The loaded outcomes of rows `from` to `to` (exclusive) of workbook `source`, as `wb`'s, with `message`. */
  copyLoaded(source: number, wb: number, from: number, to: number, message: string): void {
    this.s.copyLoaded.run(wb, message, source, from, to);
  }

  /** Rows that carry an issue of `code`: the loaded rows changed since their load (workbook-loaded-rows.ts). */
  rowsWithCode(wb: number, code: string): number {
    return this.s.changedSinceLoad.get(wb, code)?.n ?? 0;
  }

  put(wb: number, outcome: OutcomeRecord): void {
    this.s.put.run(wb, outcome.row_id, outcome.status, outcome.transaction_id, outcome.message, outcome.pkid);
  }

  get(wb: number, rowId: number): OutcomeRecord | undefined {
    return this.s.row.get(wb, rowId);
  }

  /** The outcomes of a page's rows, in one query. */
  ofRows(wb: number, rowIds: readonly number[]): Map<number, OutcomeRecord> {
    return new Map(rowIds.length === 0 ? [] : this.s.ofRows.all(wb, JSON.stringify(rowIds)).map((outcome) => [outcome.row_id, outcome]));
  }

  counts(wb: number): Record<OutcomeRecord['status'], number> {
    const counts = { loaded: 0, failed: 0, conflict: 0 };
    for (const entry of this.s.counts.all(wb)) counts[entry.status] = entry.n;
    return counts;
  }
}
