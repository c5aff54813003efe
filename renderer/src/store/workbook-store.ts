import { createStore } from 'zustand/vanilla';
import type {
  WorkbookAnswer,
  WorkbookCell,
  WorkbookEdit,
  WorkbookEditPreview,
  WorkbookEditResult,
  WorkbookInfo,
  WorkbookRow,
  WorkbookRowPage,
} from '../../../main/service/contract/workbook-api';
import type { ApiClient } from '../api/api-client';
import type { DownloadedFile } from '../api/downloads';
import { asFault, type ApiFault } from '../api/fault';
import { filterQuery, isFiltered, NO_FILTER, type RowFilter } from './workbook-filter';
import { cellText } from './workbook-cell-text';

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
  /** The rows the grid lists (workbook-filter.ts); with one, the grid's row n is the filter's n-th row. */
  filter: RowFilter;
  /** Rows through the filter, from the last page read of it (undefined until then). */
  filteredRows?: number;
  /** Lists only the rows through the filter (NO_FILTER: every row again). */
  setFilter(filter: RowFilter): void;
  /** The row at a grid index, read from the service when its page is not held (F8 to a page not read yet). */
  readRow(index: number): Promise<WorkbookRow | undefined>;
  /** Every issue of `code` in the column takes its own suggested fix, in one revision. */
  applySuggestions(code: string, columnId: number): Promise<void>;
  open(id: string): Promise<void>;
  showSheet(sheet: number): void;
  /** The row at an index of the shown sheet, reading its page when it is not there yet. */
  rowAt(index: number): WorkbookRow | undefined;
  setCell(rowId: number, columnId: number, value: WorkbookCell): Promise<void>;
  /** Several cells in one revision (one undo): a cleared range, an edit in the grid. */
  setCells(cells: CellChange[]): Promise<void>;
  /** A block copied from Excel or LibreOffice (tab-separated), its top left at a cell: rows past the end are added. */
  paste(rowIndex: number, columnId: number, tsv: string): Promise<void>;
  /** Copies the cells of the row at `fromIndex` down to `toIndex`, in these columns. */
  fillDown(columnIds: number[], fromIndex: number, toIndex: number): Promise<void>;
  /** Rows with these cells (column id -> value) after the last row of the shown sheet: typed in its first empty rows. */
  appendRows(rows: Record<string, WorkbookCell>[]): Promise<void>;
  /** `count` empty rows before the row at `at` (at the end when `at` is the sheet's row count). */
  insertRows(at: number, count: number): Promise<void>;
  /** The rows from `fromIndex` to `toIndex` (inclusive) of the shown sheet. */
  deleteRows(fromIndex: number, toIndex: number): Promise<void>;
  /** Replaces in every cell of the shown sheet; answers how many cells changed (undefined when refused). */
  replace(find: string, replacement: string, options: FindOptions): Promise<number | undefined>;
  /** Every issue of the workbook as an .xlsx or CSV report; undefined when refused (the fault says why). */
  issuesFile(format: 'xlsx' | 'csv'): Promise<DownloadedFile | undefined>;
  /** What Replace all would change in the shown sheet, applied to nothing; undefined when refused (the fault says why). */
  previewReplace(find: string, replacement: string, options: FindOptions): Promise<WorkbookEditPreview | undefined>;
  /**
   * The next (or previous) cell whose text matches, from the row at `fromIndex` (none chosen: from
   * the top, or from the bottom going back), wrapping round. `none` when no cell matches; `failed`
   * when the service refused (its message is the store's `fault`).
   */
  findNext(find: string, options: FindOptions, fromIndex: number | undefined, direction?: FindDirection): Promise<FindAnswer>;
  /** The directive banner: cell A1 of a directive sheet. */
  setDirective(text: string): Promise<void>;
  step(direction: 'undo' | 'redo'): Promise<void>;
  /** Reads the workbook again (a service event said it moved on). */
  refresh(): Promise<void>;
  /** The workbook and its rows read anew (staged again through a changed mapping: every row is another). */
  reload(): Promise<void>;
  /** The .xlsx in the workbook's own layout (with an issues column and sheet when asked). */
  save(withIssues: boolean): Promise<DownloadedFile | undefined>;
  /** Starts a plan of the current revision; the workbook's state then moves by its events. */
  plan(): Promise<void>;
  /** Loads the rows not loaded yet (`failed`: only those whose last run failed); warnings accepted. */
  load(rows: 'all' | 'failed', allowErrors: boolean): Promise<void>;
  close(): void;
}

export interface CellChange {
  row_id: number;
  column_id: number;
  value: WorkbookCell;
}

export interface FindOptions {
  regex?: boolean;
  matchCase?: boolean;
}

export type FindDirection = 'next' | 'previous';

export type FindAnswer = { index: number; columnId: number } | 'none' | 'failed';

/** The pattern the service's replace uses, so finding and replacing agree on what matches. */
export function findPattern(find: string, options: FindOptions): RegExp | undefined {
  try {
    return new RegExp(options.regex ? find : find.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), options.matchCase ? '' : 'i');
  } catch {
    return undefined;
  }
}

/** Replace all over the shown sheet, as the service takes it: one edit, one revision. */
function replaceEdit(find: string, replacement: string, options: FindOptions, sheet: number): WorkbookEdit {
  return {
    op: 'replace',
    find,
    replace: replacement,
    regex: options.regex === true,
    match_case: options.matchCase === true,
    within: { sheet },
  };
}

/** Edits that move rows (or may change every row's reading): every page read is read again. */
const MOVES_ROWS: ReadonlySet<WorkbookEdit['op']> = new Set(['paste', 'insert_rows', 'delete_rows', 'directive']);

/** A row with the cells of an edit that name it (an empty value clears the cell). */
function withCells(row: WorkbookRow, cells: CellChange[]): WorkbookRow {
  const next = { ...row.cells };
  for (const cell of cells) {
    if (cell.row_id !== row.id) continue;
    if (cell.value === null || cell.value === '') delete next[String(cell.column_id)];
    else next[String(cell.column_id)] = cell.value;
  }
  return { ...row, cells: next };
}

/** Rows a find reads a page at a time; the service filters them case-insensitively. */
const FIND_PAGE = 50;

const base = (id: string): string => `/workstation/workbooks/${encodeURIComponent(id)}/`;

export function createWorkbookStore(client: ApiClient) {
  const loading = new Set<number>();
  /**
   * The latest read asked for of each page. A page read again (after an edit, a plan's or a
   * load's end) while an older read of it was still out must not be overwritten by that older
   * answer when it lands last: the grid then kept rows from before the change (an issue typed,
   * a load's outcomes) until the next change.
   */
  const latest = new Map<number, number>();
  let reads = 0;
  return createStore<WorkbookState>()((set, get) => {
    const readPage = async (page: number): Promise<void> => {
      const { id, sheet } = get();
      if (!id || loading.has(page)) return;
      loading.add(page);
      const mine = (reads += 1);
      latest.set(page, mine);
      try {
        const filter = get().filter;
        const answer = await client.get<WorkbookRowPage>(`${base(id)}sheets/${sheet}/rows/`, {
          skip: page * PAGE_ROWS,
          limit: PAGE_ROWS,
          ...filterQuery(filter),
        });
        if (get().id !== id || get().sheet !== sheet || get().filter !== filter || latest.get(page) !== mine) return;
        const pages = new Map(get().pages);
        pages.set(page, answer.rows);
        set({ pages, version: get().version + 1, filteredRows: isFiltered(filter) ? answer.total : undefined });
      } catch (error) {
        set({ fault: asFault(error) });
      } finally {
        // A newer read of the page, asked for meanwhile, still holds it.
        if (latest.get(page) === mine) loading.delete(page);
      }
    };
    const readInfo = async (): Promise<void> => {
      const { id } = get();
      if (!id) return;
      const answer = await client.get<WorkbookAnswer>(base(id));
      const shown = get().info;
      // Reads cross (an event's refresh answered after an edit's): an older revision never replaces a newer one.
      // At one revision, an answer older than the one shown (a state it has left) is dropped too.
      const older =
        shown !== undefined &&
        (answer.workbook.revision < shown.revision ||
          (answer.workbook.revision === shown.revision && answer.workbook.updated_at < shown.updated_at));
      if (get().id !== id || (shown?.id === id && older)) return;
      set({ info: answer.workbook });
    };
    const afterChange = async (result: WorkbookEditResult): Promise<void> => {
      const pages = new Map(get().pages);
      // Every page holding a row the change touched (or all of them after rows moved) is read again.
      const touched = new Set<number>();
      for (const [page, rows] of pages) {
        // Under a filter a fixed row leaves it (and the rows after it move up): every page is read again.
        if (result.issues.some((issue) => rows.some((row) => row.id === issue.row_id)) || result.changed > 1 || isFiltered(get().filter))
          touched.add(page);
      }
      set({ fault: undefined });
      await readInfo();
      for (const page of touched.size > 0 ? touched : pages.keys()) {
        loading.delete(page);
        await readPage(page);
      }
    };
    /**
     * Edits, undos and redos run one at a time, each on the revision the one before it made: keys
     * pressed faster than the service answers (Ctrl+Z, Ctrl+Z) are each one step, never a conflict.
     */
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
      const next = turn.then(work, work);
      turn = next.catch(() => undefined);
      return next;
    };
    /**
     * Every edit goes the same way: made on the revision shown, answered with the new revision
     * and the issues of the rows it changed, then the info and the pages holding those rows read again.
     */
    const edit = (change: WorkbookEdit): Promise<WorkbookEditResult | undefined> => inTurn(() => send(change));
    /** The held rows `rowIds` changed by `update`, painted at once (the pages are read again after). */
    const patchRows = (rowIds: Set<number>, update: (row: WorkbookRow) => WorkbookRow): void => {
      const pages = new Map(get().pages);
      let patched = false;
      for (const [page, rows] of pages) {
        if (!rows.some((row) => rowIds.has(row.id))) continue;
        pages.set(
          page,
          rows.map((row) => (rowIds.has(row.id) ? update(row) : row)),
        );
        patched = true;
      }
      if (patched) set({ pages, version: get().version + 1 });
    };
    const send = async (change: WorkbookEdit): Promise<WorkbookEditResult | undefined> => {
      const { id, info } = get();
      if (!id || !info) return undefined;
      // Typed cells show their new text at once, and their issues as soon as the edit answers:
      // the answer holds every issue of the rows edited, so the tint needs no page read first.
      const typed = change.op === 'set' ? new Set(change.cells.map((cell) => cell.row_id)) : undefined;
      if (change.op === 'set' && typed) patchRows(typed, (row) => withCells(row, change.cells));
      try {
        const result = await client.send<WorkbookEditResult>('POST', `${base(id)}edits/`, { revision: info.revision, edit: change });
        if (typed) patchRows(typed, (row) => ({ ...row, issues: result.issues.filter((issue) => issue.row_id === row.id) }));
        await afterChange(MOVES_ROWS.has(change.op) ? { ...result, changed: Math.max(result.changed, 2) } : result);
        return result;
      } catch (error) {
        set({ fault: asFault(error) });
        // The workbook may have moved on (another window): read it again so the next edit is on the current revision.
        await readInfo().catch(() => undefined);
        // What was painted before the refusal goes: the pages are read as the service holds them.
        if (typed) await rereadPages().catch(() => undefined);
        return undefined;
      }
    };
    const rereadPages = async (): Promise<void> => {
      for (const page of [...get().pages.keys()]) {
        loading.delete(page);
        await readPage(page);
      }
    };
    /** The rows between two indexes of the shown sheet, from the pages read or from the service. */
    const rowsBetween = async (fromIndex: number, toIndex: number): Promise<WorkbookRow[]> => {
      const { id, sheet } = get();
      const held: WorkbookRow[] = [];
      for (let index = fromIndex; index <= toIndex; index += 1) {
        const row = get().pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS];
        if (!row) break;
        held.push(row);
      }
      if (held.length === toIndex - fromIndex + 1 || !id) return held;
      const answer = await client.get<WorkbookRowPage>(`${base(id)}sheets/${sheet}/rows/`, {
        skip: fromIndex,
        limit: toIndex - fromIndex + 1,
      });
      return answer.rows;
    };
    return {
      sheet: 0,
      filter: NO_FILTER,
      setFilter(filter) {
        loading.clear();
        set({ filter, filteredRows: undefined, pages: new Map(), version: get().version + 1 });
        void readPage(0);
      },
      async readRow(index) {
        const page = Math.floor(index / PAGE_ROWS);
        if (!get().pages.has(page)) {
          loading.delete(page);
          await readPage(page);
        }
        return get().pages.get(page)?.[index - page * PAGE_ROWS];
      },
      async applySuggestions(code, columnId) {
        await edit({ op: 'apply_suggestions', sheet: get().sheet, code, column_id: columnId });
      },
      pages: new Map(),
      version: 0,
      async open(id) {
        loading.clear();
        set({ id, info: undefined, sheet: 0, pages: new Map(), fault: undefined, filter: NO_FILTER, filteredRows: undefined });
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
        set({ sheet, pages: new Map(), version: get().version + 1, filter: NO_FILTER, filteredRows: undefined });
        void readPage(0);
      },
      rowAt(index) {
        const page = Math.floor(index / PAGE_ROWS);
        const rows = get().pages.get(page);
        if (!rows) {
          // A workbook being staged has no sheet to read yet: its rows are read once it is staged (refresh).
          if (get().info?.state !== 'staging') void readPage(page);
          return undefined;
        }
        return rows[index - page * PAGE_ROWS];
      },
      async setCell(rowId, columnId, value) {
        await edit({ op: 'set', sheet: get().sheet, cells: [{ row_id: rowId, column_id: columnId, value }] });
      },
      async setCells(cells) {
        if (cells.length > 0) await edit({ op: 'set', sheet: get().sheet, cells });
      },
      async appendRows(rows) {
        const shown = get().info?.sheets.find((candidate) => candidate.index === get().sheet);
        if (shown && rows.length > 0) await edit({ op: 'insert_rows', sheet: get().sheet, at: shown.rows, count: rows.length, rows });
      },
      async paste(rowIndex, columnId, tsv) {
        // In the empty rows after the last: the block is added after it (its first empty row).
        const shown = get().info?.sheets.find((candidate) => candidate.index === get().sheet);
        if (shown && rowIndex >= shown.rows) {
          await edit({ op: 'paste', sheet: get().sheet, index: shown.rows, column_id: columnId, tsv });
          return;
        }
        const [row] = await rowsBetween(rowIndex, rowIndex).catch(() => []);
        if (row) await edit({ op: 'paste', sheet: get().sheet, row_id: row.id, column_id: columnId, tsv });
      },
      async fillDown(columnIds, fromIndex, toIndex) {
        if (toIndex > fromIndex && columnIds.length > 0) {
          await edit({ op: 'fill_down', sheet: get().sheet, column_ids: columnIds, from_index: fromIndex, to_index: toIndex });
        }
      },
      async insertRows(at, count) {
        await edit({ op: 'insert_rows', sheet: get().sheet, at, count });
      },
      async deleteRows(fromIndex, toIndex) {
        try {
          const rows = await rowsBetween(fromIndex, toIndex);
          if (rows.length > 0) await edit({ op: 'delete_rows', sheet: get().sheet, row_ids: rows.map((row) => row.id) });
        } catch (error) {
          set({ fault: asFault(error) });
        }
      },
      async replace(find, replacement, options) {
        const result = await edit(replaceEdit(find, replacement, options, get().sheet));
        return result?.changed;
      },
      async issuesFile(format) {
        const { id, info } = get();
        if (!id || !info) return undefined;
        try {
          const fallback = `${info.name.replace(/\.xlsx$/i, '')} issues.${format}`;
          return await client.file('GET', `${base(id)}issues/`, { query: { format } }, fallback);
        } catch (error) {
          set({ fault: asFault(error) });
          return undefined;
        }
      },
      async previewReplace(find, replacement, options) {
        const { id, sheet } = get();
        if (!id) return undefined;
        try {
          set({ fault: undefined });
          return await client.send<WorkbookEditPreview>('POST', `${base(id)}edits/preview/`, {
            edit: replaceEdit(find, replacement, options, sheet),
          });
        } catch (error) {
          set({ fault: asFault(error) });
          return undefined;
        }
      },
      async findNext(find, options, fromIndex, direction = 'next') {
        const { id, info, sheet } = get();
        const pattern = findPattern(find, options);
        const shown = info?.sheets.find((candidate) => candidate.index === sheet);
        const columns = shown?.columns ?? [];
        if (!id || !pattern || find === '' || !shown) return 'none';
        const cellOf = (row: WorkbookRow): { index: number; columnId: number } | undefined => {
          const ordered = direction === 'next' ? columns : [...columns].reverse();
          const column = ordered.find((candidate) => pattern.test(cellText(row.cells[String(candidate.id)])));
          return column ? { index: row.index, columnId: column.id } : undefined;
        };
        const read = (query: Record<string, number>): Promise<WorkbookRowPage> =>
          client.get<WorkbookRowPage>(`${base(id)}sheets/${sheet}/rows/`, {
            find,
            regex: options.regex === true ? 'true' : undefined,
            limit: FIND_PAGE,
            ...query,
          });
        // The service finds rows (case-insensitively); the cell, and the case when it matters, are
        // told apart here. Row indexes start at 0: "from the top" sends no `after` (the service
        // refuses -1), "from the bottom" is `before` the sheet's row count.
        const forward = async (after: number | undefined): Promise<{ index: number; columnId: number } | undefined> => {
          for (let from = after; ;) {
            const answer = await read(from === undefined ? {} : { after: from });
            for (const row of answer.rows) {
              const found = cellOf(row);
              if (found) return found;
            }
            if (answer.next_after === null) return undefined;
            from = answer.next_after;
          }
        };
        const backward = async (before: number): Promise<{ index: number; columnId: number } | undefined> => {
          for (let to = before; to > 0;) {
            const answer = await read({ before: to });
            for (const row of [...answer.rows].reverse()) {
              const found = cellOf(row);
              if (found) return found;
            }
            if (answer.rows.length < FIND_PAGE) return undefined;
            to = answer.rows[0].index;
          }
          return undefined;
        };
        try {
          set({ fault: undefined });
          const found =
            direction === 'next'
              ? ((await forward(fromIndex)) ?? (fromIndex !== undefined ? await forward(undefined) : undefined))
              : ((await backward(fromIndex ?? shown.rows)) ?? (fromIndex !== undefined ? await backward(shown.rows) : undefined));
          return found ?? 'none';
        } catch (error) {
          set({ fault: asFault(error) });
          return 'failed';
        }
      },
      async setDirective(text) {
        await edit({ op: 'directive', sheet: get().sheet, text });
      },
      step(direction) {
        return inTurn(async () => {
          const { id, info } = get();
          if (!id || !info) return;
          if (direction === 'undo' ? !info.can_undo : !info.can_redo) return;
          try {
            const result = await client.send<WorkbookEditResult>('POST', `${base(id)}${direction}/`, { revision: info.revision });
            await afterChange({ ...result, changed: Math.max(result.changed, 2) });
          } catch (error) {
            set({ fault: asFault(error) });
            await readInfo().catch(() => undefined);
          }
        });
      },
      async reload() {
        loading.clear();
        set({ fault: undefined, pages: new Map(), version: get().version + 1 });
        await readInfo().catch((error: unknown) => set({ fault: asFault(error) }));
      },
      async refresh() {
        const before = get().info;
        await readInfo().catch((error: unknown) => set({ fault: asFault(error) }));
        const after = get().info;
        // Staged anew (a changed mapping): the rows held are another file's, and a page asked for while
        // it was staging was refused (no sheet yet). Checked anew (a file opened, its grid shown while
        // it was checked): the rows held carry no issues yet. The pages are read again as the grid asks.
        const staged = before?.state === 'staging' && after?.state !== 'staging';
        if (after && (staged || (before !== undefined && after.validated_revision !== before.validated_revision))) {
          loading.clear();
          set({ fault: undefined, pages: new Map(), version: get().version + 1 });
          return;
        }
        // A plan or a load moved on: each row's plan badge and outcome come with the rows, so the pages held are read again.
        if (
          after &&
          (JSON.stringify(after.plan) !== JSON.stringify(before?.plan) || JSON.stringify(after.load) !== JSON.stringify(before?.load))
        )
          await rereadPages();
      },
      async save(withIssues) {
        const { id, info } = get();
        if (!id || !info) return undefined;
        try {
          const fallback = withIssues ? `${info.name.replace(/\.xlsx$/i, '')} with issues.xlsx` : info.name;
          return await client.file('GET', `${base(id)}file/`, { query: withIssues ? { issues: true } : undefined }, fallback);
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
