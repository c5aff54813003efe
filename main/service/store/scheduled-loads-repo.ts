import type { Db } from './db';

/** A bulk load queued for a moment (migration 0004): when to attach its rows and run them. */
export interface ScheduledLoadRow {
  transaction_id: string;
  upload_id: string;
  hierarchy_pkid: string;
  user_pkid: string;
  /** ISO time. */
  run_at: string;
  state: 'waiting' | 'started';
}

export type NewScheduledLoad = Omit<ScheduledLoadRow, 'state'>;

/**
 * The `scheduled_loads` table. A row is `waiting` until its moment, then `started` (kept, so a
 * load is never started twice across restarts).
 */
export class ScheduledLoadsRepo {
  private readonly insertRow;
  private readonly waitingRow;
  private readonly allWaiting;
  private readonly startRow;

  constructor(db: Db) {
    this.insertRow = db.prepare<[string, string, string, string, string]>(
      "INSERT INTO scheduled_loads (transaction_id, upload_id, hierarchy_pkid, user_pkid, run_at, state) VALUES (?, ?, ?, ?, ?, 'waiting')",
    );
    this.waitingRow = db.prepare<[string], { one: number }>(
      "SELECT 1 AS one FROM scheduled_loads WHERE transaction_id = ? AND state = 'waiting'",
    );
    this.allWaiting = db.prepare<[], ScheduledLoadRow>("SELECT * FROM scheduled_loads WHERE state = 'waiting'");
    this.startRow = db.prepare<[string]>("UPDATE scheduled_loads SET state = 'started' WHERE transaction_id = ? AND state = 'waiting'");
  }

  add(load: NewScheduledLoad): void {
    this.insertRow.run(load.transaction_id, load.upload_id, load.hierarchy_pkid, load.user_pkid, load.run_at);
  }

  isWaiting(transactionId: string): boolean {
    return this.waitingRow.get(transactionId) !== undefined;
  }

  waiting(): ScheduledLoadRow[] {
    return this.allWaiting.all();
  }

  /** Marks a waiting load started; false when it was not waiting (started already, or unknown). */
  start(transactionId: string): boolean {
    return this.startRow.run(transactionId).changes === 1;
  }
}
