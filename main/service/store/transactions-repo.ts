import { UNSAMPLED, type Db } from './db';
import type { TransactionStatus } from '../contract/transaction-api';

/** What a log row is read with (`tx_row` only finds them; `lines` holds a packed row's entries). */
const LOG_COLUMNS = 'log_id, transaction_id, severity, format, time, message, lines';

/** A transaction's status as the wire names it (contract/transaction-api.ts). */
export type TxStatus = TransactionStatus;

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

/** A transaction's child as its parent lists it. */
export type ChildRow = Pick<TxRow, 'transaction_id' | 'status' | 'action' | 'detail'>;

/** `sub_transaction_counts` of decisions.md: `total` and one count per status present. */
export type ChildCounts = { total: number } & Partial<Record<TxStatus, number>>;

const FINAL: ReadonlySet<string> = new Set(['Success', 'Fail', 'Success With Async Failures']);
const FINISHED_COUNTS_KEPT = 256;

export interface LogRow {
  log_id: number;
  transaction_id: string;
  severity: string;
  format: string;
  time: string;
  message: string;
}

/** A stored log row: one entry, or with `lines` a block of entries numbered up to its `log_id` (migration 12). */
interface StoredLog extends LogRow {
  lines: string | null;
}

/**
 * A packed entry: severity, time, message; or only the message, when its severity and time are
 * those of the entry before it (a row's steps mostly log within one millisecond, so its log is
 * about a third smaller, and a load writes that much less).
 */
type PackedLine = [string, string, string] | string;

/** The entries a stored row holds, oldest first. */
function entriesOf(row: StoredLog): LogRow[] {
  const { lines, ...entry } = row;
  if (lines === null) return [entry];
  const packed = JSON.parse(lines) as PackedLine[];
  const first = row.log_id - packed.length + 1;
  let severity = entry.severity;
  let time = entry.time;
  return packed.map((line, index) => {
    if (typeof line === 'string') return { ...entry, log_id: first + index, severity, time, message: line };
    [severity, time] = line;
    return { ...entry, log_id: first + index, severity, time, message: line[2] };
  });
}

function packLines(entries: readonly { severity: string; time: string; message: string }[]): PackedLine[] {
  return entries.map((entry, index) => {
    const before = entries[index - 1];
    return before && before.severity === entry.severity && before.time === entry.time
      ? entry.message
      : [entry.severity, entry.time, entry.message];
  });
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
  private readonly insertFinishedRow;
  private readonly detailRow;
  private readonly startRow;
  private readonly finishRow;
  private readonly rowNumber;
  private readonly insertLog;
  private readonly insertPacked;
  private readonly logsOf;
  private readonly logRowFrom;
  private readonly childrenOf;
  private readonly firstChildrenOf;
  private readonly childStatuses;
  /** Counts of parents that have finished: they never change again, and a client may poll them on. */
  private readonly finishedCounts = new Map<string, ChildCounts>();

  constructor(private readonly db: Db) {
    this.byId = db.prepare<[string], TxRow>('SELECT * FROM transactions WHERE transaction_id = ?');
    this.insertRow = db.prepare(
      `INSERT INTO transactions (transaction_id, parent_id, status, action, detail, username, model_type,
         hierarchy_pkid, hierarchy_path, resource_pkid, current_state, submitted_time)
       VALUES (@transaction_id, @parent_id, @status, @action, @detail, @username, @model_type,
         @hierarchy_pkid, @hierarchy_path, @resource_pkid, @current_state, @submitted_time)`,
    );
    // A bulk load writes this and the packed log for every row: values bound by position, as
    // named ones from an object cost about 1 µs more a statement.
    this.insertFinishedRow = db.prepare<(string | null)[]>(
      `INSERT INTO transactions (transaction_id, parent_id, status, rolled_back, action, detail, message, username, model_type,
         hierarchy_pkid, hierarchy_path, resource_pkid, current_state, submitted_time, started_time, completed_time)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
    // The block's ids are taken past the highest id in use (SQLite finds it at the end of the
    // table's tree); the next row then gets the id after the block.
    this.insertPacked = db.prepare<[number, number | null, string, string, string, string, string]>(
      `INSERT INTO transaction_logs (log_id, tx_row, transaction_id, severity, format, time, message, lines)
       VALUES ((SELECT coalesce(max(log_id), 0) FROM transaction_logs) + ?, ?, ?, ?, 'text', ?, ?, ?)`,
    );
    // UNSAMPLED (db.ts): a list page of 2,000 transactions read whole runs these for each row;
    // with the value shown to the planner each run prepared the statement again (15 µs a
    // children look-up against 1.9, 8 against 5.6 a log's).
    this.logsOf = db.prepare<[string], StoredLog>(
      `SELECT ${LOG_COLUMNS} FROM transaction_logs
       WHERE tx_row = (SELECT id FROM transactions WHERE transaction_id = ${UNSAMPLED}) ORDER BY log_id DESC`,
    );
    // The row holding an entry: the first of the transaction's rows at or after its id.
    this.logRowFrom = db.prepare<[string, number], StoredLog>(
      `SELECT ${LOG_COLUMNS} FROM transaction_logs
       WHERE tx_row = (SELECT id FROM transactions WHERE transaction_id = ${UNSAMPLED}) AND log_id >= ? ORDER BY log_id LIMIT 1`,
    );
    // Only what a sub-transaction shows: a bulk load's parent, read at each poll, lists every row
    // (44 ms for 10,500 rows read whole, 11 ms so).
    this.childrenOf = db.prepare<[string], ChildRow>(
      `SELECT transaction_id, status, action, detail FROM transactions WHERE parent_id = ${UNSAMPLED} ORDER BY id`,
    );
    // Named, not left to the planner: once ANALYZE has seen one parent with 100,000 children,
    // it reads the table in id order instead, filtering, and the first 100 children of a later
    // load were found after every earlier row (measured: 21-52 ms a poll; 0.1 ms by the index).
    this.firstChildrenOf = db.prepare<[string, number], ChildRow>(
      `SELECT transaction_id, status, action, detail FROM transactions INDEXED BY transactions_parent
       WHERE parent_id = ${UNSAMPLED} ORDER BY id LIMIT ?`,
    );
    this.childStatuses = db.prepare<[string], { status: TxStatus; count: number }>(
      `SELECT status, count(*) AS count FROM transactions INDEXED BY transactions_parent_status
       WHERE parent_id = ${UNSAMPLED} GROUP BY status`,
    );
  }

  get(transactionId: string): TxRow | undefined {
    return this.byId.get(transactionId);
  }

  insert(row: NewTx): void {
    this.insertRow.run(row);
  }

  /** Returns the row number, which `logAll` takes to skip looking it up. */
  insertFinished(row: FinishedTx): number {
    const result = this.insertFinishedRow.run(
      row.transaction_id,
      row.parent_id,
      row.status,
      row.rolled_back,
      row.action,
      row.detail,
      row.message,
      row.username,
      row.model_type,
      row.hierarchy_pkid,
      row.hierarchy_path,
      row.resource_pkid,
      row.current_state,
      row.submitted_time,
      row.started_time,
      row.completed_time,
    );
    return Number(result.lastInsertRowid);
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
   * A transaction's whole log at once (a bulk-load row's, written as its batch runs): one row
   * holding every entry (migration 12) instead of a row and an index entry each.
   */
  logAll(transactionId: string, entries: readonly { severity: string; time: string; message: string }[], txRow?: number): void {
    const last = entries.at(-1);
    if (!last) return;
    if (entries.length === 1) {
      this.insertLog.run(txRow ?? this.rowOf(transactionId), transactionId, last.severity, 'text', last.time, last.message);
      return;
    }
    const lines = packLines(entries);
    // The row's own columns repeat its last entry, so a reader of the file by hand sees how it ended.
    this.insertPacked.run(
      entries.length,
      txRow ?? this.rowOf(transactionId),
      transactionId,
      last.severity,
      last.time,
      last.message,
      JSON.stringify(lines),
    );
  }

  /** Log entries, newest first. */
  logs(transactionId: string): LogRow[] {
    return this.logsOf.all(transactionId).flatMap((row) => entriesOf(row).reverse());
  }

  logEntry(transactionId: string, logId: number): LogRow | undefined {
    const row = this.logRowFrom.get(transactionId, logId);
    return row && entriesOf(row).find((entry) => entry.log_id === logId);
  }

  children(transactionId: string): ChildRow[] {
    return this.childrenOf.all(transactionId);
  }

  /** The first `limit` sub-transactions in row order: what a parent's answer lists (decisions.md). */
  firstChildren(transactionId: string, limit: number): ChildRow[] {
    return this.firstChildrenOf.all(transactionId, limit);
  }

  /** The sub-transactions counted by status, with their `total`. */
  childCounts(parent: Pick<TxRow, 'transaction_id' | 'status'>): ChildCounts {
    const known = this.finishedCounts.get(parent.transaction_id);
    if (known) return known;
    const counts: ChildCounts = { total: 0 };
    for (const row of this.childStatuses.all(parent.transaction_id)) {
      counts[row.status] = row.count;
      counts.total += row.count;
    }
    if (FINAL.has(parent.status) && counts.total > 0) {
      if (this.finishedCounts.size >= FINISHED_COUNTS_KEPT) this.finishedCounts.delete(this.finishedCounts.keys().next().value as string);
      this.finishedCounts.set(parent.transaction_id, counts);
    }
    return counts;
  }

  /** Transactions a killed process left unfinished, oldest first. */
  unfinished(): TxRow[] {
    return this.db
      .prepare<[], TxRow>(`SELECT * FROM transactions WHERE status IN ('Queued', 'In Progress', 'Processing') ORDER BY id`)
      .all();
  }
}
