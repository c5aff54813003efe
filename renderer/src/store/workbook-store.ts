import { createStore } from 'zustand/vanilla';
import type {
  WorkbookAnswer,
  WorkbookCell,
  WorkbookEditResult,
  WorkbookInfo,
  WorkbookRow,
  WorkbookRowPage,
} from '../../../main/service/contract/workbook-api';
import type { ApiClient } from '../api/api-client';
import type { DownloadedFile } from '../api/downloads';
import { asFault, type ApiFault } from '../api/fault';

/**
 * One staged workbook open in the grid: its info, the sheet shown, and its rows read a page at a
 * time as the grid scrolls to them (a million rows never come at once). An edit names the
 * revision it was made on; its answer brings the issues of every row it could change, and the
 * pages holding them are read again.
 */
export const PAGE_ROWS = 200;

export interface WorkbookState {
  id?: string;
  info?: WorkbookInfo;
  sheet: number;
  /** Pages of the shown sheet by page number (rows `page * PAGE_ROWS` on). */
  pages: Map<number, WorkbookRow[]>;
  /** Bumped when pages change, so the grid repaints. */
  version: number;
  fault?: ApiFault;
  open(id: string): Promise<void>;
  showSheet(sheet: number): void;
  /** The row at an index of the shown sheet, reading its page when it is not there yet. */
  rowAt(index: number): WorkbookRow | undefined;
  setCell(rowId: number, columnId: number, value: WorkbookCell): Promise<void>;
  step(direction: 'undo' | 'redo'): Promise<void>;
  /** Reads the workbook again (a service event said it moved on). */
  refresh(): Promise<void>;
  /** The .xlsx in the workbook's own layout (with an issues column and sheet when asked). */
  save(withIssues: boolean): Promise<DownloadedFile | undefined>;
  /** Starts a plan of the current revision; the workbook's state then moves by its events. */
  plan(): Promise<void>;
  /** Loads the rows not loaded yet (`failed`: only those whose last run failed); warnings accepted. */
  load(rows: 'all' | 'failed', allowErrors: boolean): Promise<void>;
  close(): void;
}

const base = (id: string): string => `/workstation/workbooks/${encodeURIComponent(id)}/`;

export function createWorkbookStore(client: ApiClient) {
  const loading = new Set<number>();
  return createStore<WorkbookState>()((set, get) => {
    const readPage = async (page: number): Promise<void> => {
      const { id, sheet } = get();
      if (!id || loading.has(page)) return;
      loading.add(page);
      try {
        const answer = await client.get<WorkbookRowPage>(`${base(id)}sheets/${sheet}/rows/`, {
          skip: page * PAGE_ROWS,
          limit: PAGE_ROWS,
        });
        if (get().id !== id || get().sheet !== sheet) return;
        const pages = new Map(get().pages);
        pages.set(page, answer.rows);
        set({ pages, version: get().version + 1 });
      } catch (error) {
        set({ fault: asFault(error) });
      } finally {
        loading.delete(page);
      }
    };
    const readInfo = async (): Promise<void> => {
      const { id } = get();
      if (!id) return;
      const answer = await client.get<WorkbookAnswer>(base(id));
      set({ info: answer.workbook });
    };
    const afterChange = async (result: WorkbookEditResult): Promise<void> => {
      const pages = new Map(get().pages);
      // Every page holding a row the change touched (or all of them after rows moved) is read again.
      const touched = new Set<number>();
      for (const [page, rows] of pages) {
        if (result.issues.some((issue) => rows.some((row) => row.id === issue.row_id)) || result.changed > 1) touched.add(page);
      }
      set({ fault: undefined });
      await readInfo();
      for (const page of touched.size > 0 ? touched : pages.keys()) {
        loading.delete(page);
        await readPage(page);
      }
    };
    return {
      sheet: 0,
      pages: new Map(),
      version: 0,
      async open(id) {
        loading.clear();
        set({ id, info: undefined, sheet: 0, pages: new Map(), fault: undefined });
        try {
          await readInfo();
          const first = get().info?.sheets.find((sheet) => !sheet.skipped);
          set({ sheet: first?.index ?? 0 });
          await readPage(0);
        } catch (error) {
          set({ fault: asFault(error) });
        }
      },
      showSheet(sheet) {
        loading.clear();
        set({ sheet, pages: new Map(), version: get().version + 1 });
        void readPage(0);
      },
      rowAt(index) {
        const page = Math.floor(index / PAGE_ROWS);
        const rows = get().pages.get(page);
        if (!rows) {
          void readPage(page);
          return undefined;
        }
        return rows[index - page * PAGE_ROWS];
      },
      async setCell(rowId, columnId, value) {
        const { id, info, sheet } = get();
        if (!id || !info) return;
        try {
          const result = await client.send<WorkbookEditResult>('POST', `${base(id)}edits/`, {
            revision: info.revision,
            edit: { op: 'set', sheet, cells: [{ row_id: rowId, column_id: columnId, value }] },
          });
          await afterChange(result);
        } catch (error) {
          set({ fault: asFault(error) });
          // The workbook may have moved on (another window): read it again so the next edit is on the current revision.
          await readInfo().catch(() => undefined);
        }
      },
      async step(direction) {
        const { id, info } = get();
        if (!id || !info) return;
        if (direction === 'undo' ? !info.can_undo : !info.can_redo) return;
        try {
          const result = await client.send<WorkbookEditResult>('POST', `${base(id)}${direction}/`, { revision: info.revision });
          await afterChange({ ...result, changed: Math.max(result.changed, 2) });
        } catch (error) {
          set({ fault: asFault(error) });
        }
      },
      async refresh() {
        await readInfo().catch((error: unknown) => set({ fault: asFault(error) }));
      },
      async save(withIssues) {
        const { id, info } = get();
        if (!id || !info) return undefined;
        try {
          return await client.file('GET', `${base(id)}file/`, { query: withIssues ? { issues: true } : undefined }, info.name);
        } catch (error) {
          set({ fault: asFault(error) });
          return undefined;
        }
      },
      async plan() {
        const { id, info } = get();
        if (!id || !info) return;
        try {
          set({ fault: undefined });
          await client.send('POST', `${base(id)}plan/`, { revision: info.revision });
          await readInfo();
        } catch (error) {
          set({ fault: asFault(error) });
        }
      },
      async load(rows, allowErrors) {
        const { id, info } = get();
        if (!id || !info) return;
        try {
          set({ fault: undefined });
          await client.send('POST', `${base(id)}load/`, { revision: info.revision, rows, allow_errors: allowErrors });
          await readInfo();
        } catch (error) {
          set({ fault: asFault(error) });
        }
      },
      close() {
        loading.clear();
        set({ id: undefined, info: undefined, pages: new Map() });
      },
    };
  });
}

export type WorkbookStore = ReturnType<typeof createWorkbookStore>;
