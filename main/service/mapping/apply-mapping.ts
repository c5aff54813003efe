import type { ModelDef } from '../models/types';
import type { SheetRow } from '../sheets/sheet-reader';
import { inspectWorkbookFile } from '../sheets/workbook-package';
import type { SheetColumn } from '../sheets/write-columns';
import type { CellValue } from '../sheets/write-cells';
import { writeWorkbook, type SheetSpec } from '../sheets/write-workbook';
import { readXlsxBook } from '../sheets/xlsx-book';
import type { MappingFile } from './mapping-file';
import type { MappingPlaces } from './mapping-places';
import { mappedSheets, type MappedFile } from './mapped-sheets';
import { mappedSheetName, textOf, type SheetMapper } from './sheet-mapper';

/**
 * A customer's file rewritten by a mapping as our own compact bulk-load workbook (the model's
 * name as each mapped sheet's, one header row of field names, the meta columns first), which
 * validation, staging and the load then read as any template. Nothing the customer sent is lost:
 * the columns the mapping leaves out go to a `#source` sheet, row for row with the customer's row
 * numbers (the loader skips `#` sheets), a sheet of another shape is kept as `#<its name>`, and
 * the rows keep their places under the header (empty rows stay empty), so with the header in row
 * 1, as most sheets have it, a message's row is the customer's row.
 */
/** The longest a `#source` sheet gets: the rest of a huge sheet's unmapped columns are not kept. */
const KEPT_ROWS = 100_000;

async function mappedFile(path: string, fileName: string): Promise<MappedFile> {
  const pkg = await inspectWorkbookFile(path, fileName);
  return { path, fileName, pkg, book: await readXlsxBook(path, pkg, fileName) };
}

/** One mapped sheet being written: its rows at their Excel numbers, its unmapped columns kept. */
class MappedSheetWriter {
  private readonly rows: CellValue[][] = [];
  private readonly gapsBefore = new Map<number, number>();
  private readonly kept: [number, CellValue[]][] = [];
  private last: number;

  constructor(
    private readonly suffix: string,
    header: SheetRow,
    private readonly mapper: SheetMapper,
  ) {
    this.last = header.number;
  }

  add(row: SheetRow): void {
    // Each row at its Excel number: the gaps before it are empty rows, as in the customer's file.
    if (row.number > this.last + 1) this.gapsBefore.set(this.rows.length, row.number - this.last - 1);
    this.last = row.number;
    this.rows.push(this.mapper.row(row));
    if (this.mapper.unmapped.length > 0 && this.kept.length < KEPT_ROWS)
      this.kept.push([this.kept.length + 2, [row.number, ...this.mapper.unmapped.map((column) => textOf(row, column) || null)]]);
  }

  specs(model: ModelDef): SheetSpec[] {
    const columns: SheetColumn[] = this.mapper.names.map((name) => ({ name, group: '', title: '', text: true }));
    const sheet: SheetSpec = { name: `${mappedSheetName(model)}${this.suffix}`, columns, rows: this.rows, gapsBefore: this.gapsBefore };
    if (this.mapper.unmapped.length === 0) return [sheet];
    const header: [number, CellValue[]] = [1, ['Row', ...this.mapper.unmappedHeaders]];
    return [sheet, { name: `#source${this.suffix}`, columns: [], rows: [], raw: [header, ...this.kept] }];
  }
}

/** Every sheet of `path` of the mapping's shape rewritten by `mapping` as a compact bulk-load workbook. */
export async function applyMapping(
  path: string,
  fileName: string,
  mapping: MappingFile,
  model: ModelDef,
  places?: MappingPlaces,
): Promise<Uint8Array> {
  const sheets: SheetSpec[] = [];
  let writer: MappedSheetWriter | undefined;
  let other: [number, CellValue[]][] = [];
  for await (const event of mappedSheets(await mappedFile(path, fileName), mapping, model, places)) {
    if (event.type === 'sheet')
      writer = new MappedSheetWriter(event.index === 0 ? '' : ` (${event.index + 1})`, event.header, event.mapper);
    else if (event.type === 'rows') for (const row of event.rows) writer?.add(row);
    else if (event.type === 'other') {
      for (const row of event.rows) {
        const width = Math.max(0, ...row.cells.keys());
        if (other.length < KEPT_ROWS) other.push([row.number, Array.from({ length: width }, (_, at) => textOf(row, at + 1) || null)]);
      }
    } else if (event.mapped && writer) {
      sheets.push(...writer.specs(model));
      writer = undefined;
    } else if (!event.mapped) {
      sheets.push({ name: `#${event.name}`, columns: [], rows: [], raw: other });
      other = [];
    }
  }
  return writeWorkbook(sheets);
}

/** Rows a preview shows. */
export const PREVIEW_ROWS = 5;

export interface MappingPreview {
  /** The compact sheet's headers. */
  names: string[];
  /** The first rows: the customer's row number and the values the mapping makes. */
  rows: { row: number; values: (string | boolean | null)[] }[];
}

/** The first PREVIEW_ROWS rows of the sheet a mapping applies to, as it makes them: what the engineer checks before confirming. */
export async function previewMapping(
  path: string,
  fileName: string,
  mapping: MappingFile,
  model: ModelDef,
  places?: MappingPlaces,
): Promise<MappingPreview> {
  const preview: MappingPreview = { names: [], rows: [] };
  for await (const event of mappedSheets(await mappedFile(path, fileName), mapping, model, places)) {
    if (event.type === 'sheet') preview.names = event.mapper.names;
    if (event.type === 'rows')
      for (const row of event.rows.slice(0, PREVIEW_ROWS - preview.rows.length)) {
        const values = event.mapper.row(row).map((value) => (typeof value === 'string' || typeof value === 'boolean' ? value : null));
        preview.rows.push({ row: row.number, values });
      }
    if (preview.rows.length >= PREVIEW_ROWS || event.type === 'end') break;
  }
  return preview;
}
