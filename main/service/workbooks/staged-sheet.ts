import type { WorkbookColumn } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import { requireModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import type { RawCell } from '../sheets/cell-value';
import { META_NAMES, resolveHeaders, type ColumnBinding, type HeaderCell } from '../sheets/header-resolve';
import { issueAt } from '../sheets/issue-text';
import { readDataRow, type RowContext } from '../sheets/sheet-row';
import { modelOfSheetName, parseDirective } from '../sheets/sheet-model';
import type { ParsedRow, ParsedSheet, SheetIssue } from '../sheets/sheet-types';
import { columnLetters } from '../sheets/sheet-xml-scan';
import { skippedBefore } from './row-gaps';
import type { WorkbookSheetRecord } from '../store/workbooks-repo';
import { rawOf, type RowCells } from './workbook-cells';

/**
 * A staged sheet read the way the file reader reads a sheet (sheet-reader.ts): the same model
 * from the directive or the sheet name, the same header resolution (row 2, row 4 where row 2 is
 * empty), the same row parsing. Its columns carry stable ids; their places give the letters.
 */
export interface StagedColumn {
  id: number;
  name: string;
  group: string;
  title: string;
}

export interface SheetContext {
  record: WorkbookSheetRecord;
  columns: StagedColumn[];
  parsed: ParsedSheet;
  model: ModelDef;
  /** Column id -> 1-based place. */
  places: Map<number, number>;
  /** 1-based place -> column id. */
  ids: Map<number, number>;
  bindings: Map<number, ColumnBinding>;
  rowContext: RowContext;
  /** Issues of the headers (read-only columns), as the file reader reports them. */
  headerIssues: SheetIssue[];
}

/** Parsed once per sheet record read: a page of rows asks for them per row and per issue. */
const parsedColumns = new WeakMap<WorkbookSheetRecord, StagedColumn[]>();

export function columnsOf(record: WorkbookSheetRecord): StagedColumn[] {
  let columns = parsedColumns.get(record);
  if (!columns) parsedColumns.set(record, (columns = JSON.parse(record.columns) as StagedColumn[]));
  // A copy: callers reorder and splice it.
  return [...columns];
}

export const firstRowOf = (record: { directive: string | null }): number => (record.directive === null ? 2 : 5);

/** The Excel row number of the row at `idx`: the first data row's, its place and the file's empty rows before it (row-gaps.ts). */
export const rowNumberOf = (record: { directive: string | null; row_gaps?: string }, idx: number): number =>
  firstRowOf(record) + idx + skippedBefore(record.row_gaps, idx);

/** The header cells as the reader takes them: row 2's name, else row 4's title (directive); row 1 (compact). */
function headerCells(columns: StagedColumn[], directive: boolean): Map<number, HeaderCell> {
  const headers = new Map<number, HeaderCell>();
  columns.forEach((column, index) => {
    if (!directive) headers.set(index + 1, { text: column.name, row: 1 });
    else if (column.name.trim() !== '') headers.set(index + 1, { text: column.name, row: 2 });
    else if (column.title !== '') headers.set(index + 1, { text: column.title, row: 4 });
  });
  return headers;
}

/** Throws the reader's own ApiError for a sheet it would refuse (bad directive, unknown column). */
export function sheetContext(record: WorkbookSheetRecord): SheetContext {
  const columns = columnsOf(record);
  const directive = record.directive !== null;
  const { directive: parsedDirective, model } = directive
    ? parseDirective(record.name, record.directive ?? '')
    : {
        directive: { entity: modelOfSheetName(record.name).modelType, parallel: false, evaluateMacros: false },
        model: modelOfSheetName(record.name),
      };
  const bindingsList = resolveHeaders(record.name, model, headerCells(columns, directive));
  const named: Record<string, string> = {};
  for (const binding of bindingsList) named[binding.kind === 'meta' ? META_NAMES[binding.meta] : binding.path.text] = binding.letters;
  const bindings = new Map(bindingsList.map((binding) => [binding.column, binding]));
  const parsed: ParsedSheet = {
    name: record.name,
    modelType: model.modelType,
    layout: directive ? 'directive' : 'compact',
    directive: parsedDirective,
    rows: [],
    firstDataRow: firstRowOf(record),
  };
  const headerIssues = bindingsList
    .filter((binding) => binding.kind === 'field' && binding.path.readonly)
    .map((binding) =>
      issueAt(
        {
          sheet: record.name,
          row: binding.row,
          column: binding.letters,
          field: binding.kind === 'field' ? binding.path.text : '',
          label: binding.label,
        },
        'warning',
        'read-only-column',
        'this field is computed by the service: the values in this column are ignored',
      ),
    );
  return {
    record,
    columns,
    parsed,
    model: requireModel(model.modelType),
    places: new Map(columns.map((column, index) => [column.id, index + 1])),
    ids: new Map(columns.map((column, index) => [index + 1, column.id])),
    bindings,
    rowContext: { sheet: record.name, bindings, columns: named, unlabelled: new Map() },
    headerIssues,
  };
}

/** The contexts of the sheets that hold data (not `#` sheets), in load order. */
export function dataContexts(store: Store, wb: number): SheetContext[] {
  return store.workbooks
    .sheets(wb)
    .filter((sheet) => sheet.skipped === 0)
    .map((sheet) => sheetContext(sheet));
}

/** A staged row as the reader would have read it at `rowNumber`. */
export function parseStagedRow(context: SheetContext, rowNumber: number, cells: RowCells): { row: ParsedRow; issues: SheetIssue[] } {
  const byPlace = new Map<number, RawCell>();
  for (const id in cells) {
    const place = context.places.get(Number(id));
    const raw = rawOf(cells[id]);
    if (place !== undefined && raw) byPlace.set(place, raw);
  }
  return readDataRow(context.rowContext, rowNumber, byPlace);
}

/** The columns as answered: letters from their places, what each header resolves to. */
export function columnsAnswer(context: SheetContext | undefined, columns: StagedColumn[]): WorkbookColumn[] {
  return columns.map((column, index) => {
    const binding = context?.bindings.get(index + 1);
    const field = binding?.kind === 'field' ? binding.path.field : undefined;
    const types = field ? (Array.isArray(field.type) ? field.type : [field.type]) : [];
    return {
      id: column.id,
      letter: columnLetters(index + 1),
      name: column.name,
      group: column.group,
      title: column.title,
      field: binding ? (binding.kind === 'meta' ? META_NAMES[binding.meta] : binding.path.text) : null,
      required: field?.required === true,
      text: types.includes('string') && !types.some((type) => type === 'integer' || type === 'number' || type === 'boolean'),
      choices: field?.choices
        ? field.choices.map((choice) => choice.value)
        : binding?.kind === 'meta' && binding.meta === 'action'
          ? ['add', 'modify', 'delete']
          : null,
    };
  });
}
