import Database from 'better-sqlite3';
import { createStore, type Store } from '../domain/store';
import { isoMicrosAt } from '../store/ids';
import type { RowPrecheck } from '../sheets/row-precheck';
import { RowPrechecker } from '../sheets/row-prechecker';
import type { WorkbookIssueRecord, WorkbookRowRecord } from '../store/workbooks-repo';
import { dataContexts, parseStagedRow, rowNumberOf, type SheetContext } from './staged-sheet';
import { hasPlacedCell } from './staged-validator';
import { parseCells } from './workbook-cells';

/**
 * A staged workbook's rows in load order, page by page, as a full validation reads them: each
 * row with its stored outcome when the validation compares with it (`slim`), the stored issues
 * of the rows that have some fetched for the whole page at once (one query a row cost 3 µs of
 * every such row). A big workbook's pages are read on the reader thread (sheets/read-thread.ts),
 * which also prechecks added rows while the validator is behind, as it does for a file
 * (row-precheck.ts): the template applied, the defaults filled in and the values checked move
 * to the other core (measured on a 100,000-row plan: the validator's thread spent 1.5 s of its
 * 6.3 s on them, and 0.4 s reading pages).
 */
export interface StagedRead extends WorkbookRowRecord {
  /** The stored outcome (`slim` reads only). */
  reads?: string;
  effects?: string;
  issues?: WorkbookIssueRecord[];
  /** What the reader thread worked out of an added row, if it had time (row-precheck.ts). */
  pre?: RowPrecheck;
}

export interface StagedReadBatch {
  sheet_no: number;
  rows: StagedRead[];
}

export interface StagedReadInput {
  /** The workspace file: the workbook's rows. */
  dbFile: string;
  /** A remote profile's mirror the rows are checked against (prechecks' templates and nodes); else `dbFile`. */
  checkFile?: string;
  wb: number;
  defaultNodePkid: string;
  slim: boolean;
  /** One Int32: batches the consumer has taken (read-thread-protocol.ts). */
  taken: SharedArrayBuffer;
  /**
   * One Int32, 1 while the validator waits for the service to take its outcomes: then it is
   * behind for want of the service, not of a core, and a precheck would only take CPU from the
   * service (a first validation, which writes every row; measured: 13,000 rows/s with prechecks
   * then, 16,000 without).
   */
  waiting: SharedArrayBuffer;
}

/** Rows a batch: the validator hands each batch's outcomes to the service in one transaction of about 10 ms. */
export const STAGED_PAGE = 250;

/** The rows of `wb` in load order, a page at a time; `precheck` may add what it works out of a row. */
export function* stagedBatches(
  store: Store,
  wb: number,
  slim: boolean,
  precheck?: { sheet(context: SheetContext): void; row(context: SheetContext, row: StagedRead): RowPrecheck | undefined },
): Generator<StagedReadBatch> {
  for (const context of dataContexts(store, wb)) {
    precheck?.sheet(context);
    const sheetNo = context.record.sheet_no;
    for (let from = 0; ;) {
      const rows: StagedRead[] = slim
        ? store.workbooks.pageWithResults(wb, sheetNo, from, STAGED_PAGE)
        : store.workbooks.page(wb, sheetNo, from, STAGED_PAGE);
      if (rows.length === 0) break;
      if (slim) attachIssues(store, wb, rows);
      if (precheck) for (const row of rows) row.pre = precheck.row(context, row);
      yield { sheet_no: sheetNo, rows };
      if (rows.length < STAGED_PAGE) break;
      from = rows[rows.length - 1].idx + 1;
    }
  }
}

/** Each row's stored issues: none for a row stored without any, the others in one query. */
function attachIssues(store: Store, wb: number, rows: StagedRead[]): void {
  const withIssues = rows.filter((row) => row.errors + row.warnings > 0);
  const byRow = new Map<number, WorkbookIssueRecord[]>(withIssues.map((row) => [row.row_id, []]));
  for (const issue of store.workbooks.issuesOfRows(
    wb,
    withIssues.map((row) => row.row_id),
  ))
    byRow.get(issue.row_id)?.push(issue);
  for (const row of rows) row.issues = byRow.get(row.row_id) ?? [];
}

/**
 * On the reader thread: the batches (posted as they are: their rows' cells and stored outcomes
 * are strings, cheap to clone, where JSON escaped them here to unescape them there), each row prechecked while the validator has
 * batches waiting (`behind`) and is at work on them, on a read-only connection held in one read
 * transaction.
 */
export async function sendStagedRows(
  input: StagedReadInput,
  channel: { send(batch: StagedReadBatch): Promise<void>; behind(): boolean },
): Promise<void> {
  const prechecker = new RowPrechecker({ dbFile: input.checkFile ?? input.dbFile, defaultNodePkid: input.defaultNodePkid });
  // Rows from the workspace, in a read transaction of their own, when the checks read a mirror.
  const rowsDb = input.checkFile === undefined ? undefined : openRows(input.dbFile);
  const rows = rowsDb ? createStore(rowsDb, () => isoMicrosAt(Date.now()), null) : prechecker.store;
  const waiting = new Int32Array(input.waiting);
  try {
    const precheck = {
      sheet: (context: SheetContext) => prechecker.enterSheet(context.parsed),
      row(context: SheetContext, row: StagedRead): RowPrecheck | undefined {
        if (!channel.behind() || Atomics.load(waiting, 0) === 1) return undefined;
        const cells = parseCells(row.cells);
        if (!hasPlacedCell(context, cells)) return undefined;
        return prechecker.check(parseStagedRow(context, rowNumberOf(context.record, row.idx), cells).row);
      },
    };
    for (const batch of stagedBatches(rows, input.wb, input.slim, precheck)) await channel.send(batch);
  } finally {
    prechecker.close();
    rowsDb?.close();
  }
}

function openRows(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('mmap_size = 0');
  db.exec('BEGIN');
  return db;
}
