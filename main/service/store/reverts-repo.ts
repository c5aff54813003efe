import { UNSAMPLED, type Db } from './db';
import type { PlanRecord } from './workbook-runs-repo';

/**
 * Staged workbooks that revert a load (migration 0025): which load each reverts, the version the
 * load left each of its targets at, and the loads of each revert workbook.
 */
export interface RevertRecord {
  workbook_id: string;
  original_id: string;
  created_at: string;
}

export interface RevertTarget {
  pkid: string;
  model_type: string;
  /** 1: the load deleted it; the revert makes it again under this pkid. */
  recreate: number;
  /**
   * 1: a later row of the load changed it beside its own instance: the plan cannot compare it
   * with what the load left; the revert's earlier rows put it back, and its row checks it then.
   */
  shared: number;
  /** The version its own last row of the load left it at (domain/instance-version.ts); null for one it deleted. */
  after_version: string | null;
  /** JSON: its data as the load left it, to say which fields changed since. */
  after: string | null;
  /** JSON RestoreImages (domain/restore-images.ts): what its row puts back exactly. */
  restore: string | null;
}

/** A plan entry of a revert workbook whose target's version is not the one the load left. */
export interface DriftedEntry extends PlanRecord {
  model_type: string;
  after: string | null;
}

export class RevertsRepo {
  private readonly s;

  constructor(db: Db) {
    const p = <P extends unknown[], R = unknown>(text: string) => db.prepare<P, R>(text);
    this.s = {
      insert: p<[string, string, string]>('INSERT INTO reverts (workbook_id, original_id, created_at) VALUES (?, ?, ?)'),
      ofWorkbook: p<[string], RevertRecord>('SELECT workbook_id, original_id, created_at FROM reverts WHERE workbook_id = ?'),
      ofOriginal: p<[string], RevertRecord>(
        'SELECT workbook_id, original_id, created_at FROM reverts WHERE original_id = ? ORDER BY created_at, workbook_id',
      ),
      putTarget: p<[string, string, string, number, number, string | null, string | null, string | null]>(
        `INSERT OR REPLACE INTO revert_targets (workbook_id, pkid, model_type, recreate, shared, after_version, after, restore)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      target: p<[string, string], RevertTarget>(
        `SELECT pkid, model_type, recreate, shared, after_version, after, restore FROM revert_targets WHERE workbook_id = ? AND pkid = ${UNSAMPLED}`,
      ),
      // The plan already read each target's version (workbook_plan.version): only those that differ
      // from what the load left are read again. A range of row ids at a time, for turns between.
      drifted: p<[string, number, number, number], DriftedEntry>(
        `SELECT p.row_id, p.action, p.target_pkid, p.version, p.changes, p.message, t.model_type, t.after
         FROM workbook_plan p JOIN revert_targets t ON t.workbook_id = ? AND t.pkid = p.target_pkid
         WHERE p.wb = ? AND p.row_id >= ? AND p.row_id < ? AND p.action IN ('modify', 'delete', 'unchanged')
           AND t.recreate = 0 AND t.shared = 0 AND t.after_version IS NOT NULL AND p.version IS NOT t.after_version`,
      ),
      remove: p<[string]>('DELETE FROM reverts WHERE workbook_id = ?'),
      removeTargets: p<[string]>('DELETE FROM revert_targets WHERE workbook_id = ?'),
      addLoad: p<[string, string]>('INSERT OR IGNORE INTO revert_loads (load_id, workbook_id) VALUES (?, ?)'),
      loadsOf: p<[string], { load_id: string }>('SELECT load_id FROM revert_loads WHERE workbook_id = ? ORDER BY rowid'),
      ofLoad: p<[string], { workbook_id: string }>('SELECT workbook_id FROM revert_loads WHERE load_id = ?'),
    };
  }

  add(record: RevertRecord): void {
    this.s.insert.run(record.workbook_id, record.original_id, record.created_at);
  }

  /** A revert that was not made after all (nothing to revert): its link and targets go. */
  remove(workbookId: string): void {
    this.s.removeTargets.run(workbookId);
    this.s.remove.run(workbookId);
  }

  ofWorkbook(workbookId: string): RevertRecord | undefined {
    return this.s.ofWorkbook.get(workbookId);
  }

  /** The reverts made of a load, oldest first. */
  ofOriginal(originalId: string): RevertRecord[] {
    return this.s.ofOriginal.all(originalId);
  }

  putTarget(workbookId: string, target: RevertTarget): void {
    const { pkid, model_type, recreate, shared, after_version, after, restore } = target;
    this.s.putTarget.run(workbookId, pkid, model_type, recreate, shared, after_version, after, restore);
  }

  target(workbookId: string, pkid: string): RevertTarget | undefined {
    return this.s.target.get(workbookId, pkid);
  }

  /** The clean plan entries of rows `from` to `to` (exclusive) whose target changed since the load. */
  drifted(workbookId: string, wb: number, from: number, to: number): DriftedEntry[] {
    return this.s.drifted.all(workbookId, wb, from, to);
  }

  addLoad(loadId: string, workbookId: string): void {
    this.s.addLoad.run(loadId, workbookId);
  }

  /** The loads of a revert workbook (its first, then its retries), in the order they started. */
  loadsOf(workbookId: string): string[] {
    return this.s.loadsOf.all(workbookId).map((row) => row.load_id);
  }

  /** The revert workbook a load ran, when it is one. */
  workbookOfLoad(loadId: string): string | undefined {
    return this.s.ofLoad.get(loadId)?.workbook_id;
  }
}
