import { createStore } from 'zustand/vanilla';
import type { WorkbookIssueList } from '../../../main/service/contract/workbook-api';
import type { ApiClient } from '../api/api-client';
import { asFault, type ApiFault } from '../api/fault';
import type { WorkbookStore } from './workbook-store';

/**
 * The issue panel's counts of the open workbook: per code and per column, and how many issues of
 * a code in a column carry a suggested fix ("apply to all n like it"). Read again whenever the
 * workbook's revision (an edit, an undo) or its validated revision (a full check catching up)
 * moves, so the counts follow what is typed.
 */
export type IssueCounts = Pick<WorkbookIssueList, 'revision' | 'total' | 'by_code' | 'by_column' | 'fixable'>;

export interface WorkbookIssuesState {
  counts?: IssueCounts;
  fault?: ApiFault;
  /** Reads the counts of the open workbook now. */
  reload(): Promise<void>;
}

export function createWorkbookIssuesStore(client: ApiClient, workbook: WorkbookStore) {
  const store = createStore<WorkbookIssuesState>()((set) => ({
    async reload() {
      const { id } = workbook.getState();
      if (!id) {
        set({ counts: undefined, fault: undefined });
        return;
      }
      try {
        // limit=0: the counts only; the issues themselves come with the rows of the grid.
        const list = await client.get<WorkbookIssueList>(`/workstation/workbooks/${encodeURIComponent(id)}/issues/`, { limit: 0 });
        if (workbook.getState().id !== id) return;
        const { revision, total, by_code, by_column, fixable } = list;
        set({ counts: { revision, total, by_code, by_column, fixable: fixable ?? [] }, fault: undefined });
      } catch (error) {
        set({ fault: asFault(error) });
      }
    },
  }));
  let seen: string | undefined;
  workbook.subscribe((state) => {
    const key = state.info ? `${state.info.id}:${state.info.revision}:${state.info.validated_revision ?? ''}` : undefined;
    if (key === seen) return;
    seen = key;
    if (key === undefined) store.setState({ counts: undefined });
    else void store.getState().reload();
  });
  return store;
}

export type WorkbookIssuesStore = ReturnType<typeof createWorkbookIssuesStore>;

/** How many issues of the code in the column have a suggested fix. */
export function fixableCount(counts: IssueCounts | undefined, sheet: number, code: string, columnId: number | null): number {
  return counts?.fixable.find((entry) => entry.sheet === sheet && entry.code === code && entry.column_id === columnId)?.count ?? 0;
}
