import { ApiError } from '../errors';
import { worksheetEntry } from '../sheets/read-workbook';
import { metaText } from '../sheets/field-value';
import { SHEET_LIMITS } from '../sheets/limits';
import type { SheetRow } from '../sheets/sheet-reader';
import { isDirective } from '../sheets/sheet-model';
import { inspectWorkbookFile } from '../sheets/workbook-package';
import { CHOICES_SHEET, type SheetSpec } from '../sheets/write-workbook';
import { readXlsxBook } from '../sheets/xlsx-book';
import { sheetRowBatches } from '../sheets/xlsx-row-stream';
import type { WorkbookSheetRecord } from '../store/workbooks-repo';
import type { RowGaps } from './row-gaps';
import { sheetContext, type StagedColumn } from './staged-sheet';
import { storedOf, type RowCells } from './workbook-cells';
import type { RawCell } from '../sheets/cell-value';
import type { CellValue } from '../sheets/write-cells';
import type { ModelDef } from '../models/types';
import { mappedSheets, type MappedFile } from '../mapping/mapped-sheets';
import { mappedSheetName } from '../mapping/sheet-mapper';
import type { MappingFile } from '../mapping/mapping-file';
import type { MappingPlaces } from '../mapping/mapping-places';

/**
 * Reads an .xlsx into staged sheets and rows (a job: on a worker thread where there is one).
 * Only rows that hold a value are rows: the empty rows between them are recorded as the sheet's
 * gaps (row-gaps.ts), so every row keeps its Excel row number without being stored, and the
 * row limit counts rows with content. Columns keep their letters (a column without a header
 * keeps its place); `#` sheets are kept as they were, except
 * `#choices`, which saving writes anew. Each sheet is checked as the loader checks it (directive,
 * headers) before the next is read: a sheet the loader would refuse refuses the staging.
 */
export interface StagedSheetInput extends Omit<
  WorkbookSheetRecord,
  'wb' | 'sheet_issues' | 'errors' | 'warnings' | 'rows_with_errors' | 'rows_with_warnings'
> {
  /** Data rows of the sheet: rows that hold a value. */
  rows: number;
}

export type StageChunk =
  { type: 'rows'; sheet_no: number; first_idx: number; cells: string[] } | { type: 'sheet'; sheet: StagedSheetInput };

/** `#` sheets are for notes and lists: kept to be saved back, up to this many rows. */
const MAX_KEPT_ROWS = 10_000;
const ROWS_PER_CHUNK = 500;
const NO_COUNTS = { errors: 0, warnings: 0, rows_with_errors: 0, rows_with_warnings: 0 };

const textOf = (row: SheetRow | undefined, column: number): string => {
  const raw = row?.cells.get(column);
  return raw ? (metaText(raw).text ?? '') : '';
};

function cellsOf(row: SheetRow): string {
  const cells: RowCells = {};
  for (const [column, raw] of row.cells) cells[column] = storedOf(raw);
  return JSON.stringify(cells);
}

class SheetStager {
  private readonly headers = new Map<number, SheetRow>();
  private directive: string | null | undefined;
  private maxColumn = 0;
  private dataRows = 0;
  /** Empty file rows skipped so far, and where: the sheet's gaps. */
  private emptyRows = 0;
  private readonly gaps: RowGaps = [];
  private pending: string[] = [];
  private pendingFirst = 0;
  private readonly kept: [number, RowCells][] = [];

  constructor(
    private readonly sheetNo: number,
    private readonly name: string,
    private readonly skipped: boolean,
    private readonly emit: (chunk: StageChunk) => Promise<void>,
  ) {}

  async feed(row: SheetRow): Promise<void> {
    if (row.cells.size === 0) return;
    for (const column of row.cells.keys()) this.maxColumn = Math.max(this.maxColumn, column);
    if (this.skipped) {
      if (this.kept.length < MAX_KEPT_ROWS) this.kept.push([row.number, JSON.parse(cellsOf(row)) as RowCells]);
      return;
    }
    if (this.directive === undefined) {
      if (row.number !== 1) {
        throw new ApiError(
          400,
          'bad-sheet',
          `Sheet '${this.name}': row 1 is empty; put the column headers in row 1, or a directive (entity: <model type>) in cell A1.`,
        );
      }
      this.directive = isDirective(textOf(row, 1)) ? textOf(row, 1) : null;
    }
    const firstRow = this.directive === null ? 2 : 5;
    if (row.number < firstRow) {
      this.headers.set(row.number, row);
      return;
    }
    // The loader's checks of the name and headers before the first row is stored: a sheet it
    // refuses (a customer's, waiting for its mapping) never stores its 100,000 rows to clear them.
    if (this.dataRows === 0 && this.emptyRows === 0) this.check(this.sheetInput());
    // Empty rows before this one are not stored: a gap keeps this row's Excel number.
    const skip = row.number - firstRow - this.dataRows - this.emptyRows;
    if (skip > 0) {
      this.gaps.push([this.dataRows, skip]);
      this.emptyRows += skip;
    }
    await this.push(cellsOf(row));
  }

  private async push(cells: string): Promise<void> {
    if (this.pending.length === 0) this.pendingFirst = this.dataRows;
    this.pending.push(cells);
    this.dataRows += 1;
    if (this.dataRows > SHEET_LIMITS.dataRows) {
      throw new ApiError(
        413,
        'too-large',
        `Sheet '${this.name}' has more than ${SHEET_LIMITS.dataRows.toLocaleString('en-US')} rows that hold a value, the limit of one workbook: split it.`,
      );
    }
    if (this.pending.length >= ROWS_PER_CHUNK) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    await this.emit({ type: 'rows', sheet_no: this.sheetNo, first_idx: this.pendingFirst, cells: this.pending });
    this.pending = [];
  }

  /** The sheet as read so far: its headers, columns and counts. */
  private sheetInput(): StagedSheetInput {
    const empty = !this.skipped && this.directive === undefined;
    const columns: StagedColumn[] = [];
    const directive = this.directive ?? null;
    const nameRow = this.headers.get(directive === null ? 1 : 2);
    for (let column = 1; column <= this.maxColumn; column += 1) {
      columns.push({
        id: column,
        name: column === 1 && directive !== null && nameRow === undefined ? '' : textOf(nameRow, column),
        group: directive === null ? '' : textOf(this.headers.get(3), column),
        title: directive === null ? '' : textOf(this.headers.get(4), column),
      });
    }
    return {
      sheet_no: this.sheetNo,
      name: this.name,
      skipped: this.skipped || empty ? 1 : 0,
      directive,
      model_type: null,
      columns: JSON.stringify(columns),
      next_column: this.maxColumn + 1,
      raw: this.skipped || empty ? JSON.stringify(this.kept) : null,
      rows: this.dataRows,
      row_gaps: JSON.stringify(this.gaps),
    };
  }

  /** The loader's own checks of the sheet: its model, directive and every header; answers its model. */
  private check(sheet: StagedSheetInput): string {
    return sheetContext({ ...sheet, ...NO_COUNTS, wb: 0, sheet_issues: '[]' }).model.modelType;
  }

  /** Answers whether the sheet takes rows: an empty sheet is kept (and saved) but, as the loader does, passed over. */
  async finish(): Promise<boolean> {
    await this.flush();
    const sheet = this.sheetInput();
    if (!sheet.skipped) sheet.model_type = this.check(sheet);
    await this.emit({ type: 'sheet', sheet });
    return sheet.skipped === 0;
  }
}

/** A customer's sheet staged through its mapping (workbook-mapping.ts): what its columns become. */
export interface StageMapping {
  mapping: MappingFile;
  model: ModelDef;
  places?: MappingPlaces;
}

/** A mapped row as the reader would have read it from our own layout. */
function rowOf(number: number, values: readonly CellValue[]): SheetRow {
  const cells = new Map<number, RawCell>();
  values.forEach((value, index) => {
    if (value === null || value === '') return;
    if (typeof value === 'boolean') cells.set(index + 1, { kind: 'boolean', value });
    else if (typeof value === 'number') cells.set(index + 1, { kind: 'number', value });
    else cells.set(index + 1, { kind: 'text', text: typeof value === 'string' ? value : String(value) });
  });
  return { number, cells };
}

/**
 * The customer's sheets read through their mapping straight into the workbook
 * (mapping/mapped-sheets.ts says which): each mapped sheet becomes a compact sheet of the model
 * (its header in row 1, each row where it was below the customer's header), its columns left out
 * on a `#source` sheet beside it, row for row; a sheet of another shape is kept as `#<its name>`,
 * not loaded. The same as applyMapping writes, without writing and reading a workbook in between
 * (a third of the time).
 */
async function stageMapped(file: MappedFile, emit: (chunk: StageChunk) => Promise<void>, mapped: StageMapping): Promise<number> {
  let total = 0;
  let sheetNo = 0;
  const counted = async (chunk: StageChunk): Promise<void> => {
    if (chunk.type === 'rows') total += chunk.cells.length;
    await emit(chunk);
  };
  let sheet: SheetStager | undefined;
  let source: SheetStager | undefined;
  let kept: SheetStager | undefined;
  let headerRow = 1;
  for await (const event of mappedSheets(file, mapped.mapping, mapped.model, mapped.places)) {
    switch (event.type) {
      case 'sheet': {
        const { mapper } = event;
        const suffix = event.index === 0 ? '' : ` (${event.index + 1})`;
        headerRow = event.header.number;
        sheet = new SheetStager(sheetNo++, `${mappedSheetName(mapped.model)}${suffix}`, false, counted);
        source = mapper.unmapped.length > 0 ? new SheetStager(sheetNo++, `#source${suffix}`, true, emit) : undefined;
        await sheet.feed(rowOf(1, mapper.names));
        await source?.feed(rowOf(1, ['Row', ...mapper.unmappedHeaders]));
        break;
      }
      case 'rows':
        for (const row of event.rows) {
          const number = row.number - headerRow + 1;
          await sheet?.feed(rowOf(number, event.mapper.row(row)));
          await source?.feed(rowOf(number, [row.number, ...event.mapper.unmapped.map((column) => textOf(row, column))]));
        }
        break;
      case 'other':
        kept ??= new SheetStager(sheetNo++, `#${event.name}`, true, emit);
        for (const row of event.rows) await kept.feed(row);
        break;
      case 'end':
        await sheet?.finish();
        await source?.finish();
        await kept?.finish();
        sheet = source = kept = undefined;
        break;
    }
  }
  return total;
}

/**
 * Sheets made in memory (a revert's, ../revert/revert-sheets.ts) staged as the same sheets written
 * to a file and read back would be, without writing and reading a workbook in between; each is
 * checked as the loader checks it. Answers the number of data rows.
 */
export async function stageSheets(sheets: readonly SheetSpec[], emit: (chunk: StageChunk) => Promise<void>): Promise<number> {
  let total = 0;
  for (const [sheetNo, spec] of sheets.entries()) {
    const stager = new SheetStager(sheetNo, spec.name, false, async (chunk) => {
      if (chunk.type === 'rows') total += chunk.cells.length;
      await emit(chunk);
    });
    const headers: CellValue[][] =
      spec.directive === undefined
        ? [spec.columns.map((column) => column.name)]
        : [
            [spec.directive],
            spec.columns.map((column) => column.name),
            spec.columns.map((column) => column.group),
            spec.columns.map((column) => column.title),
          ];
    let number = 0;
    for (const values of headers) await stager.feed(rowOf((number += 1), values));
    for (const values of spec.rows) await stager.feed(rowOf((number += 1), values));
    await stager.finish();
  }
  return total;
}

/** Reads the file, handing over its rows and then each sheet; answers the number of data rows. */
export async function stageFile(
  path: string,
  fileName: string,
  emit: (chunk: StageChunk) => Promise<void>,
  mapped?: StageMapping,
): Promise<number> {
  const pkg = await inspectWorkbookFile(path, fileName);
  const book = await readXlsxBook(path, pkg, fileName);
  if (mapped) return stageMapped({ path, fileName, pkg, book }, emit, mapped);
  let sheetNo = 0;
  let total = 0;
  let dataSheets = 0;
  for (const part of pkg.sheets) {
    if (part.name === CHOICES_SHEET) continue;
    const skipped = part.name.startsWith('#');
    const stager = new SheetStager(sheetNo, part.name, skipped, async (chunk) => {
      if (chunk.type === 'rows') total += chunk.cells.length;
      await emit(chunk);
    });
    for await (const rows of sheetRowBatches(path, worksheetEntry(pkg, part, fileName), book, fileName)) {
      for (const row of rows) await stager.feed(row);
    }
    if (await stager.finish()) dataSheets += 1;
    sheetNo += 1;
  }
  if (dataSheets === 0) {
    throw new ApiError(400, 'empty-workbook', `${fileName} has nothing to load: every sheet is empty or its name starts with #.`);
  }
  return total;
}
