import type { WorkbookCell } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import type { StagedColumn } from './staged-sheet';
import { parseCells, sameCell, setCell } from './workbook-cells';
import { forgetRow } from './workbook-results';

/**
 * The few changes every edit is made of, each with its exact inverse, so a revision stores what
 * to do and what undoes it (redo and undo replay them, across restarts). Rows and columns are
 * named by id; a row's place is `idx`, kept dense by inserts and deletes.
 */
export type PrimitiveOp =
  /** [sheet, [[row id, column id, value]...]] */
  | ['cells', number, [number, number, WorkbookCell][]]
  /** [sheet, idx, [[row id, cells JSON]...]]: rows put at idx, idx + 1... */
  | ['insert', number, number, [number, string][]]
  | ['delete', number, number[]]
  /** The sheet's columns in their order, and its next column id. */
  | ['columns', number, StagedColumn[], number]
  | ['directive', number, string | null]
  /** The sheet's gaps (row-gaps.ts) as JSON: set with the inserts and deletes that move them. */
  | ['gaps', number, string];

export interface AppliedOps {
  inverse: PrimitiveOp[];
  /** Cells whose value changed. */
  changedCells: number;
  /** Rows whose cells changed: enough for an incremental validation when `structural` is false. */
  rows: Set<number>;
  /** Rows moved, or columns or a directive changed: every row's issues may read differently. */
  structural: boolean;
}

function applyCells(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'cells' }>, out: AppliedOps): PrimitiveOp {
  const [, sheetNo, cells] = op;
  const before: [number, number, WorkbookCell][] = [];
  const byRow = new Map<number, [number, WorkbookCell][]>();
  for (const [rowId, columnId, value] of cells) {
    const list = byRow.get(rowId);
    if (list) list.push([columnId, value]);
    else byRow.set(rowId, [[columnId, value]]);
  }
  for (const [rowId, changes] of byRow) {
    const record = store.workbooks.row(wb, rowId);
    if (!record) continue;
    const current = parseCells(record.cells);
    let changed = false;
    for (const [columnId, value] of changes) {
      const old = current[columnId] ?? null;
      if (sameCell(old, value)) continue;
      before.push([rowId, columnId, old]);
      setCell(current, columnId, value);
      changed = true;
      out.changedCells += 1;
    }
    if (changed) {
      store.workbooks.setCells(wb, rowId, JSON.stringify(current));
      out.rows.add(rowId);
    }
  }
  return ['cells', sheetNo, before.reverse()];
}

function applyInsert(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'insert' }>, out: AppliedOps): PrimitiveOp {
  const [, sheetNo, idx, rows] = op;
  store.workbooks.shiftRows(wb, sheetNo, idx, rows.length);
  rows.forEach(([rowId, cells], offset) => {
    store.workbooks.addRow(wb, rowId, sheetNo, idx + offset, cells);
    out.rows.add(rowId);
  });
  store.workbooks.addSheetRows(wb, sheetNo, rows.length);
  out.structural = true;
  return ['delete', sheetNo, rows.map(([rowId]) => rowId)];
}

function applyDelete(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'delete' }>, out: AppliedOps): PrimitiveOp[] {
  const [, sheetNo, rowIds] = op;
  const removed = rowIds
    .map((rowId) => store.workbooks.row(wb, rowId))
    .filter((row) => row !== undefined && row.sheet_no === sheetNo)
    .sort((a, b) => (a?.idx ?? 0) - (b?.idx ?? 0));
  for (const row of removed) if (row) forgetRow(store, wb, row.row_id);
  closeGaps(
    store,
    wb,
    sheetNo,
    removed.map((row) => row?.idx ?? 0),
  );
  store.workbooks.addSheetRows(wb, sheetNo, -removed.length);
  out.structural = true;
  // Put back in ascending places, a run of neighbours at a time: each lands where it was.
  const inverse: PrimitiveOp[] = [];
  for (const row of removed) {
    if (!row) continue;
    const last = inverse[inverse.length - 1] as Extract<PrimitiveOp, { 0: 'insert' }> | undefined;
    if (last && last[2] + last[3].length === row.idx) last[3].push([row.row_id, row.cells]);
    else inverse.push(['insert', sheetNo, row.idx, [[row.row_id, row.cells]]]);
  }
  return inverse;
}

/**
 * The rows below deleted places move up, a run between two deleted places at a time (the run
 * after the k-th deleted place by k): only the rows below the first deleted place are touched. A
 * renumbering of the whole sheet read every row of it, for each slice of a big delete.
 */
function closeGaps(store: Store, wb: number, sheetNo: number, deleted: number[]): void {
  deleted.forEach((idx, k) => {
    const next = k + 1 < deleted.length ? deleted[k + 1] : Number.MAX_SAFE_INTEGER;
    if (next > idx + 1) store.workbooks.shiftBetween(wb, sheetNo, idx, next, -(k + 1));
  });
}

function applyColumns(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'columns' }>, out: AppliedOps): PrimitiveOp {
  const [, sheetNo, columns, nextColumn] = op;
  const sheet = store.workbooks.sheets(wb).find((candidate) => candidate.sheet_no === sheetNo);
  if (!sheet) return op;
  store.workbooks.updateSheet(wb, sheetNo, sheet.directive, JSON.stringify(columns), nextColumn);
  out.structural = true;
  return ['columns', sheetNo, JSON.parse(sheet.columns) as StagedColumn[], sheet.next_column];
}

function applyDirective(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'directive' }>, out: AppliedOps): PrimitiveOp {
  const [, sheetNo, text] = op;
  const sheet = store.workbooks.sheets(wb).find((candidate) => candidate.sheet_no === sheetNo);
  if (!sheet) return op;
  store.workbooks.updateSheet(wb, sheetNo, text, sheet.columns, sheet.next_column);
  out.structural = true;
  return ['directive', sheetNo, sheet.directive];
}

function applyGaps(store: Store, wb: number, op: Extract<PrimitiveOp, { 0: 'gaps' }>): PrimitiveOp {
  const [, sheetNo, gaps] = op;
  const sheet = store.workbooks.sheets(wb).find((candidate) => candidate.sheet_no === sheetNo);
  if (!sheet) return op;
  store.workbooks.setRowGaps(wb, sheetNo, gaps);
  return ['gaps', sheetNo, sheet.row_gaps];
}

/** Applies the ops in order (the caller holds a transaction); answers what undoes them, in the order to apply it. */
export function applyOps(store: Store, wb: number, ops: PrimitiveOp[]): AppliedOps {
  const out: AppliedOps = { inverse: [], changedCells: 0, rows: new Set(), structural: false };
  const inverses: PrimitiveOp[][] = [];
  for (const op of ops) {
    if (op[0] === 'cells') inverses.push([applyCells(store, wb, op, out)]);
    else if (op[0] === 'insert') inverses.push([applyInsert(store, wb, op, out)]);
    else if (op[0] === 'delete') inverses.push(applyDelete(store, wb, op, out));
    else if (op[0] === 'columns') inverses.push([applyColumns(store, wb, op, out)]);
    else if (op[0] === 'gaps') inverses.push([applyGaps(store, wb, op)]);
    else inverses.push([applyDirective(store, wb, op, out)]);
  }
  out.inverse = inverses.reverse().flat();
  return out;
}
