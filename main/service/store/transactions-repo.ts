import type Database from 'better-sqlite3';
import type { Db } from './db';

/** What a log entry answers with; `tx_row` only finds them. */
const LOG_COLUMNS = 'log_id, transaction_id, severity, format, time, message';

/** Entries one multi-row log insert takes at most (a statement is prepared per count). */
const MAX_LOGS_PER_STATEMENT = 16;

export type TxStatus = 'Queued' | 'In Progress' | 'Processing' | 'Success' | 'Fail' | 'Success With Async Failures';

export interface TxRow {
  transaction_id: string;
  parent_id: string | null;
  status: TxStatus;
  rolled_back: 'Yes' | 'No';
  action: string;
  detail: string;
  message: string;
  priority: string;
  username: string;
  model_type: string;
  hierarchy_pkid: string | null;
  hierarchy_path: string;
  resource_pkid: string | null;
  current_state: string;
  submitted_time: string;
  started_time: string | null;
  completed_time: string | null;
}

export interface LogRow {
  log_id: number;
  transaction_id: string;
  severity: string;
  format: string;
  time: string;
  message: string;
}

export type NewTx = Pick<
  TxRow,
  | 'transaction_id'
  | 'parent_id'
  | 'status'
  | 'action'
  | 'detail'
  | 'username'
  | 'model_type'
  | 'hierarchy_pkid'
  | 'hierarchy_path'
  | 'resource_pkid'
  | 'current_state'
  | 'submitted_time'
>;

/** A transaction written once, already finished: a bulk-load row run inside its batch. */
export type FinishedTx = NewTx & Omit<TxFinish, 'detail'> & { started_time: string };

export interface TxFinish {
  /** A new detail (a group's final count); the detail stays as it was when absent. */
  detail?: string;
  status: TxStatus;
  rolled_back: 'Yes' | 'No';
  message: string;
  resource_pkid: string | null;
  current_state: string;
  completed_time: string;
}

export class TransactionsRepo {
  private readonly byId;
  private readonly insertRow;
  private readonly logsBy = new Map<number, Database.Statement<(string | number | null)[]>>();
  private readonly insertFinishedRow;
  private readonly detailRow;
  private readonly startRow;
  private readonly finishRow;
  private readonly rowNumber;
  private readonly insertLog;
  private readonly logsOf;
  private readonly childrenOf;

  constructor(private readonly db: Db) {
    this.byId = db.prepare<[string], TxRow>('SELECT * FROM transactions WHERE transaction_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO transactions (transaction_id, parent_id, status, action, detail, username, model_type,
         hierarchy_pkid, hierarchy_path, resource_pkid, current_state, submitted_time)
       VALUES (@transaction_id, @parent_id, @status, @action, @detail, @username, @model_type,
         @hierarchy_pkid, @hierarchy_path, @resource_pkid, @current_state, @submitted_time)`,
    );
    this.insertFinishedRow = db.prepare(
      `INSERT INTO transactions (transaction_id, parent_id, status, rolled_back, action, detail, message, username, model_type,
         hierarchy_pkid, hierarchy_path, resource_pkid, current_state, submitted_time, started_time, completed_time)
       VALUES (@transaction_id, @parent_id, @status, @rolled_back, @action, @detail, @message, @username, @model_type,
         @hierarchy_pkid, @hierarchy_path, @resource_pkid, @current_state, @submitted_time, @started_time, @completed_time)`,
    );
    this.detailRow = db.prepare('UPDATE transactions SET detail = ? WHERE transaction_id = ?');
    this.startRow = db.prepare(
      `UPDATE transactions SET status = @status, started_time = @started_time WHERE transaction_id = @transaction_id`,
    );
    this.finishRow = db.prepare(
      `UPDATE transactions SET status = @status, rolled_back = @rolled_back, message = @message,
         resource_pkid = @resource_pkid, current_state = @current_state, completed_time = @completed_time,
         detail = coalesce(@detail, detail)
       WHERE transaction_id = @transaction_id`,
    );
    this.rowNumber = db.prepare<[string], { id: number }>('SELECT id FROM transactions WHERE transaction_id = ?');
    this.insertLog = db.prepare(
      'INSERT INTO transaction_logs (tx_row, transaction_id, severity, format, time, message) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.logsOf = db.prepare<[string], LogRow>(
      `SELECT ${LOG_COLUMNS} FROM transaction_logs
       WHERE tx_row = (SELECT id FROM transactions WHERE transaction_id = ?) ORDER BY log_id DESC`,
    );
    this.childrenOf = db.prepare<[string], TxRow>('SELECT * FROM transactions WHERE parent_id = ? ORDER BY id');
  }

  get(transactionId: string): TxRow | undefined {
    return this.byId.get(transactionId);
  }

  insert(row: NewTx): void {
    this.insertRow.run(row);
  }

  /** Returns the row number, which `logAll` takes to skip looking it up. */
  insertFinished(row: FinishedTx): number {
    return Number(this.insertFinishedRow.run(row).lastInsertRowid);
  }

  /** A running group's detail, as its count moves (`[ 41000/100000 ] ...`). */
  setDetail(transactionId: string, detail: string): void {
    this.detailRow.run(detail, transactionId);
  }

  start(transactionId: string, status: TxStatus, time: string): void {
    this.startRow.run({ transaction_id: transactionId, status, started_time: time });
  }

  finish(transactionId: string, finish: TxFinish): void {
    this.finishRow.run({ transaction_id: transactionId, detail: null, ...finish });
  }

  log(transactionId: string, severity: string, time: string, message: string): void {
    this.insertLog.run(this.rowOf(transactionId), transactionId, severity, 'text', time, message);
  }

  /** The transaction's row number, which keys its log entries (migration 10). */
  private rowOf(transactionId: string): number | null {
    return this.rowNumber.get(transactionId)?.id ?? null;
  }

  /**
   * Several entries of one transaction in one statement (a bulk-load row writes about eight):
   * one round into SQLite instead of one each.
   */
  logAll(transactionId: string, entries: readonly { severity: string; time: string; message: string }[], txRow?: number): void {
    const row = txRow ?? this.rowOf(transactionId);
    for (let start = 0; start < entries.length; start += MAX_LOGS_PER_STATEMENT) {
      const part = entries.slice(start, start + MAX_LOGS_PER_STATEMENT);
      const values: (string | number | null)[] = [];
      for (const entry of part) values.push(row, transactionId, entry.severity, 'text', entry.time, entry.message);
      this.logStatement(part.length).run(...values);
    }
  }

  private logStatement(count: number): Database.Statement<(string | number | null)[]> {
    let statement = this.logsBy.get(count);
    if (!statement) {
      const rows = Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      statement = this.db.prepare<(string | number | null)[]>(
        `INSERT INTO transaction_logs (tx_row, transaction_id, severity, format, time, message) VALUES ${rows}`,
      );
      this.logsBy.set(count, statement);
    }
    return statement;
  }

  /** Log entries, newest first. */
  logs(transactionId: string): LogRow[] {
    return this.logsOf.all(transactionId);
  }

  logEntry(transactionId: string, logId: number): LogRow | undefined {
    return this.db
      .prepare<[string, number], LogRow>(
        `SELECT ${LOG_COLUMNS} FROM transaction_logs
         WHERE tx_row = (SELECT id FROM transactions WHERE transaction_id = ?) AND log_id = ?`,
      )
      .get(transactionId, logId);
  }

  children(transactionId: string): TxRow[] {
    return this.childrenOf.all(transactionId);
  }

  /** Transactions a killed process left unfinished, oldest first. */
  unfinished(): TxRow[] {
    return this.db
      .prepare<[], TxRow>(
        `SELECT * FROM transactions WHERE status IN ('Queued', 'In Progress', 'Processing') ORDER BY id`,
      )
      .all();
  }
}
