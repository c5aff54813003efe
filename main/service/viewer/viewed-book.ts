import { ApiError } from '../errors';
import type { ViewerColumn, ViewerRow, ViewerSheet } from '../contract/viewer-api';
import { isoDateText, type RawCell } from '../sheets/cell-value';
import { numberText } from '../sheets/number-text';
import { worksheetEntry } from '../sheets/read-workbook';
import { readSheetLayout, widthInPixels, type SheetLayout } from '../sheets/sheet-layout';
import { isDirective } from '../sheets/sheet-model';
import type { SheetRow } from '../sheets/sheet-reader';
import { columnLetters } from '../sheets/sheet-xml-scan';
import { inspectWorkbookFile } from '../sheets/workbook-package';
import { readXlsxBook } from '../sheets/xlsx-book';
import { sheetRowBatches } from '../sheets/xlsx-row-stream';

/**
 * A workbook read once for viewing: every sheet (`#` sheets too, which a loader skips) as the
 * text of its cells, with what the screen needs of its layout. Unlike the loader's reader
 * (read-workbook.ts) nothing here gives a cell a meaning or refuses a sheet for its headers: any
 * .xlsx opens. The file is checked by the same package checks first (size, zip bombs, encryption).
 */
export interface ViewedSheet {
  info: ViewerSheet;
  /** Data rows, below the header rows; a row's cells stop at its last non-empty one. */
  rows: ViewerRow[];
}

export interface ViewedBook {
  sheets: ViewedSheet[];
  /** Cells were left unread past the cap. */
  truncated: boolean;
  /** Non-empty cells held: what a viewer costs in memory. */
  cells: number;
}

export const VIEW_LIMITS = {
  /** Non-empty cells one viewer holds: about 100 MB at worst; an export of a whole customer is cut there. */
  cells: 1_000_000,
  /** Columns shown; a cell further right is not read (an export has tens). */
  columns: 1024,
  /** A frozen pane deeper than this is not a header: row 1 is taken for it. */
  headerRows: 10,
};

/** A cell's text as Excel shows it plainly: numbers in full, dates as ISO days, booleans as TRUE/FALSE. */
export function viewText(raw: RawCell): string {
  switch (raw.kind) {
    case 'text':
      return raw.text;
    case 'number':
      return numberText(raw.value, raw.numFmt).text;
    case 'boolean':
      return raw.value ? 'TRUE' : 'FALSE';
    case 'date':
      return isoDateText(raw.value);
    case 'error':
      return raw.text;
    case 'no-value':
      return '';
  }
}

interface ReadRow {
  row: number;
  cells: string[];
}

function textsOf(row: SheetRow): string[] {
  const cells: string[] = [];
  for (const [column, raw] of row.cells) {
    if (column > VIEW_LIMITS.columns) continue;
    const text = viewText(raw);
    if (text !== '') cells[column - 1] = text;
  }
  // Holes left by empty cells read as ''.
  return Array.from(cells, (text) => text ?? '');
}

/** How many rows above the data are headers: a directive sheet's four, the frozen rows, else one. */
function headerRowsOf(directive: string | null, layout: SheetLayout): number {
  if (directive !== null) return 4;
  if (layout.frozenRows > 0 && layout.frozenRows <= VIEW_LIMITS.headerRows) return layout.frozenRows;
  return 1;
}

function columnsOf(
  header: Map<number, string[]>,
  headerRows: number,
  directive: boolean,
  count: number,
  layout: SheetLayout,
): ViewerColumn[] {
  return Array.from({ length: count }, (_, at) => {
    const cellOf = (row: number): string => header.get(row)?.[at] ?? '';
    // Directive layout: row 2 names the field, row 4 titles it; elsewhere the lowest header row with text titles it.
    let title = directive ? cellOf(4) || cellOf(2) : '';
    for (let row = headerRows; !directive && row >= 1 && title === ''; row -= 1) title = cellOf(row);
    const width = layout.widths.get(at + 1);
    return {
      letter: columnLetters(at + 1),
      title,
      name: directive ? cellOf(2) : '',
      width: width === undefined ? null : widthInPixels(width),
    };
  });
}

function sheetOf(index: number, name: string, read: ReadRow[], layout: SheetLayout): ViewedSheet {
  const a1 = read[0]?.row === 1 ? (read[0].cells[0] ?? '') : '';
  const directive = isDirective(a1) ? a1 : null;
  const headerRows = headerRowsOf(directive, layout);
  const header = new Map<number, string[]>();
  const rows: ViewerRow[] = [];
  let count = 0;
  for (const row of read) {
    count = Math.max(count, row.cells.length);
    if (row.row <= headerRows) header.set(row.row, row.cells);
    else rows.push(row);
  }
  // The directive sits in A1 alone: it does not make the sheet a column wider.
  if (directive !== null && count === 0) count = 1;
  return {
    info: {
      index,
      name,
      skipped: name.startsWith('#'),
      directive,
      header_rows: headerRows,
      frozen_columns: Math.max(1, Math.min(layout.frozenColumns, count)),
      columns: columnsOf(header, headerRows, directive !== null, count, layout),
      rows: rows.length,
    },
    rows,
  };
}

/** Reads the file at `path` (named `fileName` in messages) for viewing; whole-file problems are ApiErrors. */
export async function readViewedBook(path: string, fileName: string): Promise<ViewedBook> {
  const pkg = await inspectWorkbookFile(path, fileName);
  if (pkg.sheets.length === 0) throw new ApiError(400, 'empty-workbook', `${fileName} has no sheet to show.`);
  const book = await readXlsxBook(path, pkg, fileName);
  const viewed: ViewedBook = { sheets: [], truncated: false, cells: 0 };
  for (const [index, part] of pkg.sheets.entries()) {
    const entry = worksheetEntry(pkg, part, fileName);
    const layout = await readSheetLayout(path, entry, fileName);
    const read: ReadRow[] = [];
    if (!viewed.truncated) {
      batches: for await (const batch of sheetRowBatches(path, entry, book, fileName)) {
        for (const row of batch) {
          const cells = textsOf(row);
          if (cells.length === 0) continue;
          viewed.cells += row.cells.size;
          if (viewed.cells > VIEW_LIMITS.cells) {
            viewed.truncated = true;
            break batches;
          }
          read.push({ row: row.number, cells });
        }
      }
    }
    viewed.sheets.push(sheetOf(index, part.name, read, layout));
  }
  return viewed;
}
