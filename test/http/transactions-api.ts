import type { ApiClient, ListBody } from './api-client';

/** tool/Transaction as the spec and decisions.md describe it, and helpers to read it. */
export type TxStatus = 'Queued' | 'In Progress' | 'Processing' | 'Success' | 'Fail' | 'Success With Async Failures';
export const FINAL_STATUSES: readonly TxStatus[] = ['Success', 'Fail', 'Success With Async Failures'];

export interface LogEntry {
  severity: string;
  format: string;
  log_id: string;
  href: string;
  time: string;
  message: string;
  transaction_id: string;
}

export interface TransactionData {
  transaction_id: string;
  action: string;
  status: TxStatus;
  rolled_back: 'Yes' | 'No';
  detail: string;
  message: string;
  model_type: string;
  parent_id: string | null;
  resource: { hierarchy: string; model_type: string; current_state: string; pkid: string };
  log: LogEntry[];
  /** The first 100 (decisions.md: a parent's answer is bounded); allSubTransactions() reads them all. */
  sub_transactions: { transaction_id: string; href: string; status: TxStatus; action: string; detail: string }[];
  sub_transaction_counts: { total: number } & Partial<Record<TxStatus, number>>;
}

export interface SubTransactionRow {
  transaction_id: string;
  status: TxStatus;
  detail: string;
}

/** Every sub-transaction of a parent in row order, paged through the list with `parent_id` as a client does. */
export async function allSubTransactions(api: ApiClient, parentId: string, hierarchy = 'sys'): Promise<SubTransactionRow[]> {
  const all: SubTransactionRow[] = [];
  for (let skip = 0; ; skip += 2000) {
    const answer = await api.get<ListBody<SubTransactionRow>>(
      `/api/tool/Transaction/?hierarchy=${encodeURIComponent(hierarchy)}&parent_id=${parentId}&limit=2000&skip=${skip}`,
    );
    if (answer.status !== 200) throw new Error(`listing the rows of ${parentId} gave ${answer.status}: ${answer.text}`);
    all.push(...answer.body.resources.map((resource) => resource.data));
    if (answer.body.resources.length < 2000) return all;
  }
}

export type PollBody = Record<string, { status: TxStatus; href: string; description: string }>;

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Polls `poll/` until the transaction reaches a final status; fails the test on a timeout. */
export async function pollUntilDone(api: ApiClient, transactionId: string, timeoutMs = 10_000): Promise<TxStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await api.get<PollBody>(`/api/tool/Transaction/${transactionId}/poll/`);
    if (answer.status !== 200) throw new Error(`poll of ${transactionId} gave ${answer.status}: ${answer.text}`);
    const status = answer.body[transactionId].status;
    if (FINAL_STATUSES.includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`transaction ${transactionId} still ${status} after ${timeoutMs} ms`);
    await sleep(20);
  }
}

export async function getTransaction(api: ApiClient, transactionId: string): Promise<TransactionData> {
  const answer = await api.get<{ data: TransactionData }>(`/api/tool/Transaction/${transactionId}/`);
  if (answer.status !== 200) throw new Error(`GET transaction ${transactionId} gave ${answer.status}: ${answer.text}`);
  return answer.body.data;
}

/** Every top-level transaction at `sys` and below, full data (summary=false), page by page. */
export async function listAllTransactions(api: ApiClient): Promise<TransactionData[]> {
  const all: TransactionData[] = [];
  for (let skip = 0; ; skip += 2000) {
    const answer = await api.get<ListBody<TransactionData>>(`/api/tool/Transaction/?hierarchy=sys&limit=2000&skip=${skip}&summary=false`);
    if (answer.status !== 200) throw new Error(`listing transactions gave ${answer.status}: ${answer.text}`);
    all.push(...answer.body.resources.map((resource) => resource.data));
    if (answer.body.resources.length < 2000) {
      if (all.length !== answer.body.pagination.total) {
        throw new Error(`paged ${all.length} transactions but the list says total ${answer.body.pagination.total}`);
      }
      return all;
    }
  }
}

/** How many transactions are in each status, for the report. */
export function countByStatus(transactions: TransactionData[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const tx of transactions) counts[tx.status] = (counts[tx.status] ?? 0) + 1;
  return counts;
}
