import { createStore } from 'zustand/vanilla';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import { FINISHED } from '../api/finished';
import type {
  TransactionDetail,
  TransactionInstance,
  TransactionList,
  TransactionLogEntry,
  TransactionSummary,
} from '../../../main/service/contract/transaction-api';

const TRANSACTIONS = '/api/tool/Transaction/';
export const PAGE_SIZE = 50;

export interface TransactionFilters {
  status: string;
  modelType: string;
}

type LoadState = 'idle' | 'loading' | 'ready' | 'empty' | 'error';

export interface TransactionsState {
  hierarchy?: string;
  filters: TransactionFilters;
  skip: number;
  rows: TransactionSummary[];
  total: number;
  listState: LoadState;
  listFault?: ApiFault;
  /** True while the list refreshes itself because a listed transaction is still running. */
  autoRefreshing: boolean;
  /** Loads the list of a node (first page, current filters) and keeps it fresh while anything runs. */
  loadList(hierarchy: string): Promise<void>;
  setFilters(change: Partial<TransactionFilters>): Promise<void>;
  setSkip(skip: number): Promise<void>;
  /** Reads the current page again without a loading state (auto-refresh, a tracked transaction finished). */
  refreshList(): Promise<void>;
  /** Stops the list's auto-refresh (the view was left). */
  stopList(): void;

  detailId?: string;
  detail?: TransactionDetail;
  detailState: 'idle' | 'loading' | 'ready' | 'error';
  detailFault?: ApiFault;
  /** Reads one transaction and follows it until it has finished. */
  openDetail(id: string): Promise<void>;
  closeDetail(): void;
}

export interface TransactionsTiming {
  /** How often the list is read again while a listed transaction runs. */
  refreshMs: number;
  /** How often an open, unfinished transaction is read again. */
  pollMs: number;
}

const isRunning = (status: string): boolean => !FINISHED.has(status);

/** The service lists the log newest first; read as a story it goes oldest first. */
export function inOrder(entries: TransactionLogEntry[]): TransactionLogEntry[] {
  return [...entries].sort((a, b) => Number(a.log_id) - Number(b.log_id));
}

/**
 * Two filter sets per field, startswith and endswith the value: together an exact match. The
 * service ignores every other set when one uses `equals` (spec filter rule 3), so `equals` could
 * not combine a status with a model type.
 */
export function filterQuery(filters: TransactionFilters): URLSearchParams {
  const query = new URLSearchParams();
  const exact = (field: string, text: string) => {
    for (const condition of ['startswith', 'endswith']) {
      query.append('filter_field', field);
      query.append('filter_condition', condition);
      query.append('filter_text', text);
      query.append('ignore_case', 'false');
    }
  };
  if (filters.status) exact('status', filters.status);
  if (filters.modelType) exact('model_type', filters.modelType);
  return query;
}

export function createTransactionsStore(client: ApiClient, timing: TransactionsTiming = { refreshMs: 1500, pollMs: 500 }) {
  // A newer load or a stop makes older timers and answers stale; these counters say which is current.
  let listGeneration = 0;
  let detailGeneration = 0;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  return createStore<TransactionsState>()((set, get) => {
    const fetchPage = async (quiet: boolean): Promise<void> => {
      const { hierarchy, filters, skip } = get();
      if (!hierarchy) return;
      const generation = ++listGeneration;
      clearTimeout(refreshTimer);
      if (!quiet) set({ listState: 'loading', listFault: undefined });
      const query = filterQuery(filters);
      for (const [name, value] of Object.entries({
        hierarchy,
        skip: String(skip),
        limit: String(PAGE_SIZE),
        order_by: 'submitted_time',
        direction: 'desc',
      }))
        query.set(name, value);
      try {
        const answer = await client.get<TransactionList>(TRANSACTIONS, query);
        if (generation !== listGeneration) return;
        const rows = answer.resources.map((resource) => resource.data);
        const running = rows.some((row) => isRunning(row.status));
        set({
          rows,
          total: answer.pagination.total,
          listState: rows.length === 0 ? 'empty' : 'ready',
          listFault: undefined,
          autoRefreshing: running,
        });
        if (running) refreshTimer = setTimeout(() => void fetchPage(true), timing.refreshMs);
      } catch (error) {
        if (generation !== listGeneration) return;
        // A failed refresh keeps the rows on screen: the fault says why they may be stale.
        set({ listState: quiet && get().rows.length > 0 ? get().listState : 'error', listFault: asFault(error), autoRefreshing: false });
      }
    };

    const follow = async (id: string, generation: number): Promise<void> => {
      for (;;) {
        try {
          const answer = await client.get<TransactionInstance>(`${TRANSACTIONS}${id}/`);
          if (generation !== detailGeneration) return;
          set({ detail: { ...answer.data, log: inOrder(answer.data.log ?? []) }, detailState: 'ready', detailFault: undefined });
          if (!isRunning(answer.data.status)) return;
        } catch (error) {
          if (generation !== detailGeneration) return;
          set({ detailState: get().detail ? 'ready' : 'error', detailFault: asFault(error) });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
        if (generation !== detailGeneration) return;
      }
    };

    return {
      filters: { status: '', modelType: '' },
      skip: 0,
      rows: [],
      total: 0,
      listState: 'idle',
      autoRefreshing: false,
      async loadList(hierarchy) {
        set({ hierarchy, skip: hierarchy === get().hierarchy ? get().skip : 0 });
        await fetchPage(false);
      },
      async setFilters(change) {
        set({ filters: { ...get().filters, ...change }, skip: 0 });
        await fetchPage(false);
      },
      async setSkip(skip) {
        set({ skip: Math.max(0, skip) });
        await fetchPage(false);
      },
      refreshList: () => fetchPage(true),
      stopList() {
        listGeneration++;
        clearTimeout(refreshTimer);
        set({ autoRefreshing: false });
      },

      detailState: 'idle',
      async openDetail(id) {
        const generation = ++detailGeneration;
        set({
          detailId: id,
          detail: get().detail?.transaction_id === id ? get().detail : undefined,
          detailState: 'loading',
          detailFault: undefined,
        });
        await follow(id, generation);
      },
      closeDetail() {
        detailGeneration++;
      },
    };
  });
}

export type TransactionsStore = ReturnType<typeof createTransactionsStore>;
