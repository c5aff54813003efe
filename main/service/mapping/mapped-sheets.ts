import { ApiError } from '../errors';
import { worksheetEntry } from '../sheets/read-workbook';
import type { SheetRow } from '../sheets/sheet-reader';
import type { WorkbookPackage } from '../sheets/workbook-package';
import { CHOICES_SHEET } from '../sheets/write-workbook';
import type { XlsxBook } from '../sheets/xlsx-book';
import { sheetRowBatches } from '../sheets/xlsx-row-stream';
import { sheetMapper, type SheetMapper } from './sheet-mapper';
import type { MappingFile } from './mapping-file';
import type { MappingPlaces } from './mapping-places';
import type { ModelDef } from '../models/types';

/**
 * The sheets of a customer's file as a mapping reads them, for the two that consume them:
 * staging (workbooks/stage-file.ts, straight into the workbook) and the written mapped workbook
 * (apply-mapping.ts, the CLI's `--write` and `--mapping`). Every sheet with the columns the
 * mapping names (a file with one sheet per site) is mapped, each with its own name for the
 * mapping's `sheet_name`; a later sheet without them (notes) is handed over as it is, to be kept
 * and never loaded; the first sheet must have them. A consumer that has what it needs (a
 * preview's few rows) stops by leaving its loop: the file's streams are closed.
 */
export type MappedSheetEvent =
  /** A sheet of the mapping's shape begins: `index` counts them from 0. */
  | { type: 'sheet'; name: string; index: number; header: SheetRow; mapper: SheetMapper }
  /** Rows below its header (rows without a value are not rows). */
  | { type: 'rows'; rows: SheetRow[]; mapper: SheetMapper }
  /** Rows of a sheet of another shape, its header among them: kept as they are. */
  | { type: 'other'; name: string; rows: SheetRow[] }
  /** The sheet is read. */
  | { type: 'end'; name: string; mapped: boolean };

export interface MappedFile {
  path: string;
  fileName: string;
  pkg: WorkbookPackage;
  book: XlsxBook;
}

/** The sheet a mapping is made from: the file's first sheet not named with a `#`. */
export function mappedSheetOf<T extends { name: string }>(sheets: readonly T[], fileName: string): T {
  const part = sheets.find((sheet) => !sheet.name.startsWith('#'));
  if (!part) throw new ApiError(400, 'empty-workbook', `${fileName} has no sheet to map.`);
  return part;
}

export async function* mappedSheets(
  file: MappedFile,
  mapping: MappingFile,
  model: ModelDef,
  places: MappingPlaces | undefined,
): AsyncGenerator<MappedSheetEvent> {
  const { path, fileName, pkg, book } = file;
  const first = mappedSheetOf(pkg.sheets, fileName);
  let index = 0;
  for (const part of pkg.sheets) {
    if (part.name === CHOICES_SHEET || (part.name.startsWith('#') && part !== first)) continue;
    let mapper: SheetMapper | undefined;
    let other = false;
    for await (const batch of sheetRowBatches(path, worksheetEntry(pkg, part, fileName), book, fileName)) {
      let rows = batch.filter((row) => row.cells.size > 0);
      if (!mapper && !other && rows.length > 0) {
        const [header] = rows;
        try {
          mapper = sheetMapper(header, mapping, model, fileName, places, part.name);
          yield { type: 'sheet', name: part.name, index, header, mapper };
          rows = rows.slice(1);
        } catch (error) {
          if (part === first) throw error;
          other = true;
        }
      }
      if (rows.length === 0) continue;
      if (mapper) yield { type: 'rows', rows, mapper };
      else yield { type: 'other', name: part.name, rows };
    }
    if (!mapper && !other && part === first)
      throw new ApiError(400, 'empty-workbook', `${fileName}'s sheet '${part.name}' has no header row to map.`);
    if (mapper) index += 1;
    if (mapper || other) yield { type: 'end', name: part.name, mapped: mapper !== undefined };
  }
}
