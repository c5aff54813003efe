import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import { metaText } from '../sheets/field-value';
import { columnLetters } from '../sheets/sheet-xml-scan';
import { worksheetEntry } from '../sheets/read-workbook';
import type { SheetRow } from '../sheets/sheet-reader';
import { inspectWorkbookFile } from '../sheets/workbook-package';
import type { SheetColumn } from '../sheets/write-columns';
import type { CellValue } from '../sheets/write-cells';
import { writeWorkbook } from '../sheets/write-workbook';
import { readXlsxBook } from '../sheets/xlsx-book';
import { sheetRowBatches } from '../sheets/xlsx-row-stream';
import type { MappingColumn, MappingFile } from './mapping-file';
import type { MappingPlaces } from './mapping-places';
import { applyTransform, type TransformContext } from './transforms';

/**
 * A customer's sheet rewritten by a mapping as our own compact bulk-load sheet (the model's name
 * as the sheet's, one header row of field names, the meta columns first), which validation,
 * staging and the load then read as any template: values mapped, transforms applied, constants
 * and joins filled in every row. Nothing the customer sent is lost: the columns the mapping
 * leaves out go to a `#source` sheet, row for row with the customer's row numbers (the loader
 * skips `#` sheets), and the rows keep their places under the header (empty rows stay empty), so
 * with the header in row 1, as most sheets have it, a message's row is the customer's row.
 */
const META_NAMES: Record<string, string> = { '#Hierarchy Node': 'Hierarchy Node', '#Action': 'Action', '#CFT Template': 'CFT Template' };
/** The longest a `#source` sheet gets: the rest of a huge sheet's unmapped columns are not kept. */
const KEPT_ROWS = 100_000;

const textOf = (row: SheetRow, column: number): string => {
  const raw = row.cells.get(column);
  return raw ? (metaText(raw).text ?? '') : '';
};

function valueOf(mapped: MappingColumn, text: string, context: TransformContext): CellValue {
  let value = text;
  for (const transform of mapped.transforms ?? []) value = applyTransform(value, transform, context);
  const to = mapped.values?.[value] ?? mapped.values?.[text];
  if (to !== undefined) return to;
  return value === '' ? null : value;
}

interface Placed {
  name: string;
  /** The source column, for a mapped column. */
  source?: { column: number; mapped: MappingColumn };
  constant?: string;
  join?: { columns: number[]; separator: string };
}

/** A field's header as the template writes it: its title, unless another field has the same title (then its name). */
function headerOf(model: ModelDef, target: string): string {
  const meta = META_NAMES[target];
  if (meta) return meta;
  const title = model.fields[target]?.title;
  if (!title) return target;
  const shared = Object.values(model.fields).filter((field) => field.title.toLowerCase() === title.toLowerCase()).length;
  return shared === 1 ? title : target;
}

function placeColumns(mapping: MappingFile, model: ModelDef, headers: Map<string, number>, fileName: string): Placed[] {
  const column = (header: string): number => {
    const found = headers.get(header.trim());
    if (found === undefined)
      throw new ApiError(400, 'validation-failed', `The mapping names the column '${header}', which ${fileName} does not have.`);
    return found;
  };
  const placed: Placed[] = [];
  const nameOf = (target: string): string => headerOf(model, target);
  for (const mapped of mapping.columns)
    if (mapped.target !== null) placed.push({ name: nameOf(mapped.target), source: { column: column(mapped.header), mapped } });
  for (const [target, value] of Object.entries(mapping.constants ?? {})) placed.push({ name: nameOf(target), constant: value });
  for (const join of mapping.joins ?? [])
    placed.push({ name: nameOf(join.target), join: { columns: join.headers.map(column), separator: join.separator } });
  // Meta columns first, as the template has them.
  const isMeta = (entry: Placed): boolean => Object.values(META_NAMES).includes(entry.name);
  return placed.sort((a, b) => Number(!isMeta(a)) - Number(!isMeta(b)));
}

/**
 * A customer's sheet mapped row by row, from its header row: the columns of the compact sheet
 * (meta columns first), each row's values in them, and the source columns the mapping leaves out
 * (kept on `#source`). Used to write the mapped workbook (applyMapping) and, in staging, to read
 * the customer's rows straight into the workbook (workbooks/stage-file.ts).
 */
/** A mapping names a column by its header: one the file has twice cannot be told apart (refused, naming both). */
function refuseTwinHeaders(header: SheetRow, mapping: MappingFile, fileName: string): void {
  const named = new Set([
    ...mapping.columns.filter((column) => column.target !== null).map((column) => column.header.trim()),
    ...(mapping.joins ?? []).flatMap((join) => join.headers.map((text) => text.trim())),
  ]);
  const seen = new Map<string, number>();
  for (const column of [...header.cells.keys()].sort((a, b) => a - b)) {
    const text = textOf(header, column).trim();
    const first = seen.get(text);
    if (first !== undefined && named.has(text))
      throw new ApiError(
        400,
        'duplicate-column',
        `${fileName} has two columns headed '${text}' (${columnLetters(first)} and ${columnLetters(column)}): rename one so that the mapping can tell them apart.`,
      );
    seen.set(text, column);
  }
}

export interface SheetMapper {
  /** The compact sheet's headers, in order. */
  names: string[];
  /** The source columns the mapping leaves out, and their headers. */
  unmapped: number[];
  unmappedHeaders: string[];
  row(row: SheetRow): CellValue[];
}

export function sheetMapper(
  header: SheetRow,
  mapping: MappingFile,
  model: ModelDef,
  fileName: string,
  places?: MappingPlaces,
): SheetMapper {
  const headers = new Map([...header.cells.keys()].map((column) => [textOf(header, column), column]));
  refuseTwinHeaders(header, mapping, fileName);
  const placed = placeColumns(mapping, model, headers, fileName);
  const used = new Set(placed.flatMap((entry) => [entry.source?.column ?? 0, ...(entry.join?.columns ?? [])]));
  const unmapped = [...header.cells.keys()].filter((column) => !used.has(column));
  const node = placed.find((entry) => entry.name === META_NAMES['#Hierarchy Node']);
  const base: TransformContext = { nodePath: places ? (name) => places.nodePath(name) : undefined };
  return {
    names: placed.map((entry) => entry.name),
    unmapped,
    unmappedHeaders: unmapped.map((column) => textOf(header, column)),
    row(row) {
      const cellOf = (entry: Placed, context: TransformContext): CellValue => {
        if (entry.constant !== undefined) return entry.constant;
        if (entry.join) {
          const parts = entry.join.columns.map((column) => textOf(row, column)).filter((text) => text !== '');
          return parts.length > 0 ? parts.join(entry.join.separator) : null;
        }
        return entry.source ? valueOf(entry.source.mapped, textOf(row, entry.source.column), context) : null;
      };
      // The row's node first: a local number is made E.164 with its country.
      const nodeValue = node ? cellOf(node, base) : null;
      const context: TransformContext = {
        ...base,
        countryCode: () => (places && typeof nodeValue === 'string' ? places.countryCodeOf(nodeValue) : undefined),
      };
      return placed.map((entry) => (entry === node ? nodeValue : cellOf(entry, context)));
    },
  };
}

/** The sheet of a customer's file a mapping applies to: its first sheet not named with a `#`. */
export function mappedSheetOf<T extends { name: string }>(sheets: readonly T[], fileName: string): T {
  const part = sheets.find((sheet) => !sheet.name.startsWith('#'));
  if (!part) throw new ApiError(400, 'empty-workbook', `${fileName} has no sheet to map.`);
  return part;
}

/** The compact sheet's name: the model's. */
export const mappedSheetName = (model: ModelDef): string => model.modelType.split('/').pop() ?? model.modelType;

/**
 * Reads the sheet a mapping applies to: its mapper, made from its header row, and each row below
 * the header with that mapper; `onRow` answers false to stop reading (a preview's few rows).
 */
async function readMappedSheet(
  path: string,
  fileName: string,
  mapping: MappingFile,
  model: ModelDef,
  places: MappingPlaces | undefined,
  onRow: (row: SheetRow, mapper: SheetMapper) => boolean,
): Promise<{ header: SheetRow; mapper: SheetMapper }> {
  const pkg = await inspectWorkbookFile(path, fileName);
  const book = await readXlsxBook(path, pkg, fileName);
  const part = mappedSheetOf(pkg.sheets, fileName);
  let read: { header: SheetRow; mapper: SheetMapper } | undefined;
  let more = true;
  for await (const batch of sheetRowBatches(path, worksheetEntry(pkg, part, fileName), book, fileName)) {
    for (const row of batch) {
      if (row.cells.size === 0) continue;
      if (!read) read = { header: row, mapper: sheetMapper(row, mapping, model, fileName, places) };
      else more = onRow(row, read.mapper);
      if (!more) break;
    }
    if (!more) break;
  }
  if (!read) throw new ApiError(400, 'empty-workbook', `${fileName}'s sheet '${part.name}' has no header row to map.`);
  return read;
}

/** The first sheet of `path` rewritten by `mapping` as a compact bulk-load workbook. */
export async function applyMapping(
  path: string,
  fileName: string,
  mapping: MappingFile,
  model: ModelDef,
  places?: MappingPlaces,
): Promise<Uint8Array> {
  const rows: [number, CellValue[]][] = [];
  const kept: [number, CellValue[]][] = [];
  const { header, mapper } = await readMappedSheet(path, fileName, mapping, model, places, (row, mapper) => {
    rows.push([row.number, mapper.row(row)]);
    if (mapper.unmapped.length > 0 && kept.length < KEPT_ROWS)
      kept.push([kept.length + 2, [row.number, ...mapper.unmapped.map((column) => textOf(row, column) || null)]]);
    return true;
  });
  const columns: SheetColumn[] = mapper.names.map((name) => ({ name, group: '', title: '', text: true }));
  // Each row at its Excel number: the gaps before it are empty rows, as in the customer's file.
  const gapsBefore = new Map<number, number>();
  let last = header.number;
  rows.forEach(([number], index) => {
    if (number > last + 1) gapsBefore.set(index, number - last - 1);
    last = number;
  });
  return writeWorkbook([
    { name: mappedSheetName(model), columns, rows: rows.map(([, values]) => values), gapsBefore },
    ...(mapper.unmapped.length > 0
      ? [{ name: '#source', columns: [], rows: [], raw: [[1, ['Row', ...mapper.unmappedHeaders]] as [number, CellValue[]], ...kept] }]
      : []),
  ]);
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
  const rows: MappingPreview['rows'] = [];
  const { mapper } = await readMappedSheet(path, fileName, mapping, model, places, (row, rowMapper) => {
    const values = rowMapper.row(row).map((value) => (typeof value === 'string' || typeof value === 'boolean' ? value : null));
    rows.push({ row: row.number, values });
    return rows.length < PREVIEW_ROWS;
  });
  return { names: mapper.names, rows };
}
