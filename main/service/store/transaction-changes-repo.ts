import type { InstanceChange } from './change-journal';
import { UNSAMPLED, type Db } from './db';

/**
 * What each bulk-load row changed (migration 0025, `transaction_changes`), by its
 * sub-transaction's row number: one row of JSON per row, written in the row's own commit.
 */
export interface ChangedChild {
  /** The sub-transaction's row number: children are read in this (their run) order. */
  id: number;
  transaction_id: string;
  status: string;
  action: string;
  model_type: string;
  resource_pkid: string | null;
  hierarchy_path: string;
  detail: string;
  /** JSON InstanceChange[]; null for a row that changed nothing, or ran before changes were kept. */
  changes: string | null;
}

export class TransactionChangesRepo {
  private readonly insertRow;
  private readonly childrenAfter;

  constructor(db: Db) {
    this.insertRow = db.prepare<[number, string]>('INSERT INTO transaction_changes (tx_row, changes) VALUES (?, ?)');
    this.childrenAfter = db.prepare<[string, number, number], ChangedChild>(
      `SELECT t.id, t.transaction_id, t.status, t.action, t.model_type, t.resource_pkid, t.hierarchy_path, t.detail, c.changes
       FROM transactions t LEFT JOIN transaction_changes c ON c.tx_row = t.id
       WHERE t.parent_id = ${UNSAMPLED} AND t.id > ? ORDER BY t.id LIMIT ?`,
    );
  }

  record(txRow: number, changes: readonly InstanceChange[]): void {
    this.insertRow.run(txRow, JSON.stringify(changes));
  }

  /** A parent's sub-transactions after row number `after`, `limit` of them, in run order, with what each changed. */
  children(parentId: string, after: number, limit: number): ChangedChild[] {
    return this.childrenAfter.all(parentId, after, limit);
  }
}
