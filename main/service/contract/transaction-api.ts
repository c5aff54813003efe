/**
 * The wire shapes of transactions, `/api/tool/Transaction/...` and the answers of changes
 * (decisions.md "Transactions"). Types only, without Node or DOM types: the service builds its
 * answers against them, the renderer (tsconfig.web.json includes this file) and the tests read
 * them. Type aliases, not interfaces, so the service's JSON values (`JsonObject`) can hold them.
 */
import type { InstanceMeta, ListMeta, Pagination } from './resource-api';

export type FinishedTransactionStatus = 'Success' | 'Fail' | 'Success With Async Failures';

export type TransactionStatus = 'Queued' | 'In Progress' | 'Processing' | FinishedTransactionStatus;

/** A row of a transactions list: the summary attributes of tool/Transaction. */
export type TransactionSummary = {
  transaction_id: string;
  action: string;
  status: string;
  detail: string;
  model_type: string;
  username?: string;
  submitted_time: string;
};

export type TransactionLogEntry = {
  severity: string;
  format?: string;
  log_id: string;
  href?: string;
  time: string;
  message: string;
  transaction_id?: string;
};

export type SubTransaction = {
  transaction_id: string;
  href?: string;
  status: string;
  action: string;
  detail: string;
};

export type TransactionResource = {
  hierarchy: string;
  model_type: string;
  pkid: string;
  current_state?: string;
  /** An export's file, once its transaction has finished. */
  download_href?: string;
};

/** Every sub-transaction of a parent counted: `total`, and one count per status present. */
export type SubTransactionCounts = { total: number } & Partial<Record<TransactionStatus, number>>;

/**
 * A transaction read whole: its summary, the log (newest first), its first sub-transactions and
 * the counts of all of them (decisions.md: a parent's answer stays small whatever its size).
 */
export type TransactionDetail = TransactionSummary & {
  rolled_back: 'Yes' | 'No';
  message: string;
  priority?: string;
  started_time?: string | null;
  completed_time?: string | null;
  parent_id: string | null;
  top_level?: boolean;
  resource?: TransactionResource;
  log: TransactionLogEntry[];
  /** The first 100 in row order; the rest page through `GET /api/tool/Transaction/?parent_id=<id>`. */
  sub_transactions: SubTransaction[];
  sub_transaction_counts: SubTransactionCounts;
};

/** `GET /api/tool/Transaction/<id>/`. */
export type TransactionInstance = { data: TransactionDetail; meta: InstanceMeta };

/** `GET /api/tool/Transaction/?hierarchy=...` (`summary=true` gives the summary fields only). */
export type TransactionList = {
  pagination: Pagination;
  meta: ListMeta;
  resources: { data: TransactionSummary | TransactionDetail; meta: InstanceMeta }[];
};

/** A change that waited for its transaction and succeeded (a failure answers the fault instead). */
export type TransactionAnswer = {
  success: true;
  pkid: string | null;
  model_type: string;
  transaction_id: string;
  href: string;
  meta: { uri: string; parent_id: string | null; summary_attrs: Record<string, unknown> };
};
