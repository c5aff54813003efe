import { parseGaps } from './row-gaps';
import type { WorkbookCell } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import type { CellValue } from '../sheets/write-cells';
import type { SheetColumn } from '../sheets/write-columns';
import { writeWorkbook, type SheetSpec } from '../sheets/write-workbook';
import type { WorkbookRecord, WorkbookSheetRecord } from '../store/workbooks-repo';
import { columnsAnswer, columnsOf, sheetContext, type StagedColumn } from './staged-sheet';
import { parseCells, type RowCells } from './workbook-cells';
import { issueList } from './workbook-views';

/**
 * A staged workbook saved as .xlsx in its own layout: the same sheets in the same order, the
 * directive in A1, names, groups and titles in rows 2-4 (or the names in row 1), every row at
 * its place, directory numbers and other text columns formatted as text, choices as drop-down
 * lists. With issues: a Comment column giving each row's issues (where the sheet has none), and
 * a `#Issues` sheet listing them all; the loader skips both.
 */
const PAGE = 2000;
const ISSUES_SHEET = '#Issues';

function cellValue(cell: WorkbookCell | undefined): CellValue {
  if (cell === undefined || cell === null) return null;
  if (typeof cell !== 'object') return cell;
  if ('number' in cell) return { number: cell.number, numFmt: cell.format };
  if ('date' in cell) return new Date(cell.date);
  if ('error' in cell) return { error: cell.error };
  // A formula whose value the file did not save. Written empty, it read back as "not given" and
  // its error (formula-without-value) vanished from the saved file: written as a formula with
  // no saved result, it reads back as the same cell.
  return { noValue: true };
}

function* sheetRows(
  store: Store,
  wb: number,
  sheet: WorkbookSheetRecord,
  columns: StagedColumn[],
  issuesOf?: (rowId: number) => string,
  only?: ReadonlySet<number>,
): Generator<CellValue[]> {
  for (let skip = 0; skip < sheet.rows; skip += PAGE) {
    for (const row of store.workbooks.page(wb, sheet.sheet_no, skip, PAGE)) {
      if (only && !only.has(row.row_id)) continue;
      const cells: RowCells = parseCells(row.cells);
      const values = columns.map((column) => cellValue(cells[column.id]));
      if (issuesOf) values.push(row.errors + row.warnings > 0 ? issuesOf(row.row_id) : null);
      yield values;
    }
  }
}

function dataSheet(store: Store, wb: number, sheet: WorkbookSheetRecord, withIssues: boolean, only?: ReadonlySet<number>): SheetSpec {
  const staged = columnsOf(sheet);
  const answered = columnsAnswer(sheetContext(sheet), staged);
  const columns: SheetColumn[] = answered.map((column) => ({
    name: column.name,
    group: column.group,
    title: column.title,
    text: column.text,
    ...(column.choices ? { choices: column.choices } : {}),
  }));
  const commentFree = withIssues && !answered.some((column) => column.field === 'Comment');
  if (commentFree) columns.push({ name: 'Comment', group: '', title: 'Issues', text: true });
  const issuesOf = commentFree
    ? (rowId: number): string =>
        store.workbooks
          .rowIssues(wb, rowId)
          .map((issue) => `${issue.severity === 'error' ? 'Error' : 'Warning'}: ${issue.message}`)
          .join('\n')
    : undefined;
  // A push's file holds some rows only, numbered anew; a saved workbook keeps every row's number.
  const gapsBefore = only ? undefined : new Map(parseGaps(sheet.row_gaps));
  return {
    name: sheet.name,
    directive: sheet.directive ?? undefined,
    columns,
    rows: sheetRows(store, wb, sheet, staged, issuesOf, only),
    gapsBefore,
  };
}

function rawSheet(sheet: WorkbookSheetRecord): SheetSpec {
  const rows = (JSON.parse(sheet.raw ?? '[]') as [number, RowCells][]).map(([number, cells]): [number, CellValue[]] => {
    const last = Math.max(0, ...Object.keys(cells).map(Number));
    return [number, Array.from({ length: last }, (_, index) => cellValue(cells[index + 1]))];
  });
  return { name: sheet.name, columns: [], rows: [], raw: rows };
}

export function issuesSheet(store: Store, record: WorkbookRecord): SheetSpec {
  const list = issueList(store, record, 0, 1_000_000);
  const names = new Map(store.workbooks.sheets(record.wb).map((sheet) => [sheet.sheet_no, sheet.name]));
  const header: SheetColumn[] = ['Sheet', 'Row', 'Column', 'Severity', 'Code', 'Message'].map((name) => ({
    name,
    group: '',
    title: name,
    text: true,
  }));
  return {
    name: ISSUES_SHEET,
    columns: header,
    rows: list.issues.map((issue) => [
      names.get(issue.sheet) ?? '',
      issue.row || null,
      issue.column || null,
      issue.severity,
      issue.code,
      issue.message,
    ]),
  };
}

/** `only`: just these rows, in their order (a push's file: the rows it loads). */
export async function saveWorkbook(
  store: Store,
  record: WorkbookRecord,
  withIssues: boolean,
  only?: ReadonlySet<number>,
): Promise<Uint8Array> {
  const sheets = store.workbooks
    .sheets(record.wb)
    .filter((sheet) => !(withIssues && sheet.name === ISSUES_SHEET))
    .map((sheet) => (sheet.skipped ? rawSheet(sheet) : dataSheet(store, record.wb, sheet, withIssues, only)));
  if (withIssues) sheets.push(issuesSheet(store, record));
  return writeWorkbook(sheets);
}
