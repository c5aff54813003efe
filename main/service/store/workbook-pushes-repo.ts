import type { Db } from './db';

/** `submitting`: the bulk load's request is being sent (or was, when the push stopped then). */
export type PushState = 'prepared' | 'uploaded' | 'submitting' | 'submitted' | 'done';

/** A push of a staged workbook to a remote profile (migration 0017). */
export interface PushRecord {
  push_id: string;
  wb: number;
  profile_pkid: string;
  state: PushState;
  file_name: string;
  /** JSON: [row_id, sheet name, row number in the pushed file][]. */
  rows: string;
  remote_transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

export class WorkbookPushesRepo {
  private readonly s;

  constructor(db: Db) {
    this.s = {
      insert: db.prepare<[string, number, string, string, string, string, string, string]>(
        `INSERT INTO workbook_pushes (push_id, wb, profile_pkid, state, file_name, rows, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      unfinished: db.prepare<[number], PushRecord>(
        "SELECT * FROM workbook_pushes WHERE wb = ? AND state <> 'done' ORDER BY created_at DESC LIMIT 1",
      ),
      last: db.prepare<[number], PushRecord>('SELECT * FROM workbook_pushes WHERE wb = ? ORDER BY created_at DESC LIMIT 1'),
      setState: db.prepare<[string, string | null, string, string]>(
        'UPDATE workbook_pushes SET state = ?, remote_transaction_id = coalesce(?, remote_transaction_id), updated_at = ? WHERE push_id = ?',
      ),
    };
  }

  create(push: Omit<PushRecord, 'remote_transaction_id' | 'updated_at'>): void {
    this.s.insert.run(push.push_id, push.wb, push.profile_pkid, push.state, push.file_name, push.rows, push.created_at, push.created_at);
  }

  /** The workbook's push that has not ended, if any: a push run again resumes it. */
  unfinished(wb: number): PushRecord | undefined {
    return this.s.unfinished.get(wb);
  }

  last(wb: number): PushRecord | undefined {
    return this.s.last.get(wb);
  }

  setState(pushId: string, state: PushState, now: string, remoteTransactionId: string | null = null): void {
    this.s.setState.run(state, remoteTransactionId, now, pushId);
  }
}
