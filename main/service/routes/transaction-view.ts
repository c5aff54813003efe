import type { InstanceMeta } from '../contract/resource-api';
import type { SubTransaction, TransactionDetail, TransactionLogEntry, TransactionSummary } from '../contract/transaction-api';
import type { Store } from '../domain/store';
import { EXPORT_MODEL_TYPE, exportDownloadHref } from '../sheets/export-download';
import type { ChildCounts, LogRow, TxRow } from '../store/transactions-repo';
import { transactionHref } from './transaction-answer';

const RUNNING: ReadonlySet<string> = new Set(['Queued', 'In Progress', 'Processing']);

export function logEntry(row: LogRow): TransactionLogEntry {
  return {
    severity: row.severity,
    format: row.format,
    log_id: String(row.log_id),
    href: `${transactionHref(row.transaction_id)}log/?log_id=${row.log_id}`,
    time: row.time,
    message: row.message,
    transaction_id: row.transaction_id,
  };
}

/** The summary fields of a transaction, as lists show them. */
export function transactionSummary(row: TxRow): TransactionSummary {
  return {
    transaction_id: row.transaction_id,
    action: row.action,
    status: row.status,
    detail: row.detail,
    model_type: row.model_type,
    username: row.username,
    submitted_time: row.submitted_time,
  };
}

/** How many sub-transactions a parent's answer lists (decisions.md), in row order. */
export const SUB_TRANSACTIONS_LISTED = 100;

/** The spec's transaction `data`, with the log newest first and the sub-transactions. */
export function transactionData(store: Store, row: TxRow): TransactionDetail {
  return {
    ...transactionSummary(row),
    rolled_back: row.rolled_back,
    message: row.message,
    priority: row.priority,
    started_time: row.started_time,
    completed_time: row.completed_time,
    parent_id: row.parent_id,
    top_level: row.parent_id === null,
    resource: {
      hierarchy: row.hierarchy_path,
      model_type: row.model_type,
      current_state: row.current_state,
      pkid: row.resource_pkid ?? '',
      // A nowait export's file is served here once its transaction has finished.
      ...(row.model_type === EXPORT_MODEL_TYPE && row.resource_pkid ? { download_href: exportDownloadHref(row.resource_pkid) } : {}),
    },
    log: store.transactions.logs(row.transaction_id).map(logEntry),
    // Bounded: a client polls a parent (the spec's advice for long work), and a 100,000-row load
    // listed whole was 24 MB an answer. The rest page through the list with `parent_id`.
    sub_transactions: store.transactions.firstChildren(row.transaction_id, SUB_TRANSACTIONS_LISTED).map((child): SubTransaction => ({
      transaction_id: child.transaction_id,
      href: transactionHref(child.transaction_id),
      status: child.status,
      action: child.action,
      detail: child.detail,
    })),
    sub_transaction_counts: runningLoadCounts(store, row) ?? store.transactions.childCounts(row),
  };
}

/**
 * A running bulk load's sub-transactions counted from the load's own committed counts: each of
 * its batches commits its rows' sub-transactions (Success or Fail) with the counts, so they are
 * the same numbers. Counting them in the table costs 9 ms at 100,000 rows, on each poll of the
 * parent (the spec's advice for long work); these cost nothing. A finished parent is counted
 * once in the table and remembered (transactions-repo.ts).
 */
function runningLoadCounts(store: Store, row: TxRow): ChildCounts | undefined {
  if (row.parent_id !== null || !RUNNING.has(row.status)) return undefined;
  const load = store.bulkLoads.get(row.transaction_id);
  if (!load || load.state !== 'running') return undefined;
  const counts: ChildCounts = { total: load.done };
  if (load.ok > 0) counts.Success = load.ok;
  if (load.done > load.ok) counts.Fail = load.done - load.ok;
  return counts;
}

export function transactionMeta(row: TxRow): InstanceMeta {
  return {
    model_type: 'tool/Transaction',
    pkid: row.transaction_id,
    hierarchy: row.hierarchy_path,
    href: transactionHref(row.transaction_id),
    tags: [],
  };
}
