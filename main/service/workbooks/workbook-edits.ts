import { gapsAfterDelete, gapsAfterInsert, parseGaps, type RowGaps } from './row-gaps';
import type { WorkbookCell, WorkbookEdit, WorkbookSuggestion } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import type { WorkbookSheetRecord } from '../store/workbooks-repo';
import { compileCellPattern, MAX_PATTERN, TimeSlice, type CellPattern } from './cell-pattern';
import { columnsOf, rowNumberOf, sheetContext, type StagedColumn } from './staged-sheet';
import { columnLetters } from '../sheets/sheet-xml-scan';
import { cellFromRequest, cellText, MAX_CELL_TEXT, parseCells } from './workbook-cells';
import type { PrimitiveOp } from './workbook-ops';
import { parseTsvInTurns } from './workbook-tsv';

/**
 * An edit as a client sends it, checked and turned into primitive ops (workbook-ops.ts). Every
 * place it names must exist: a row of that sheet, a column of that sheet, an index within it.
 * Anything else is a 400 that says what was wrong, and nothing is applied.
 */
export interface PlannedEdit {
  op: WorkbookEdit['op'];
  ops: PrimitiveOp[];
  summary: string;
  /** Cells given a value in rows the edit inserts (a paste past the end): changed cells too, though no cell op sets them. */
  insertedCells?: number;
}

/** Rows an edit may add or touch at once: a bound on one request's work. */
const MAX_NEW_ROWS = 100_000;

const bad = (message: string): ApiError => new ApiError(400, 'bad-edit', message);

type Fields = Record<string, unknown>;

function int(fields: Fields, name: string, min = 0): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw bad(`'${name}' must be a whole number of at least ${min}.`);
  return value;
}

function text(fields: Fields, name: string, max = 1000): string {
  const value = fields[name];
  if (typeof value !== 'string' || value.length > max) throw bad(`'${name}' must be text of at most ${max} characters.`);
  return value;
}

const plural = (count: number, word: string): string => `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;

export class EditPlanner {
  private readonly sheets: WorkbookSheetRecord[];

  constructor(
    private readonly store: Store,
    private readonly wb: number,
  ) {
    this.sheets = store.workbooks.sheets(wb);
  }

  plan(raw: unknown): PlannedEdit {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad("'edit' must be an object with an 'op'.");
    const fields = raw as Fields;
    switch (fields.op as WorkbookEdit['op']) {
      case 'set':
        return this.set(fields);
      case 'paste':
        throw bad('A paste is planned with prepare().');
      case 'insert_rows':
        return this.insertRows(fields);
      case 'delete_rows':
        return this.deleteRows(fields);
      case 'add_column':
      case 'remove_column':
      case 'move_column':
        return this.columnEdit(fields);
      case 'fill_down':
        return this.fillDown(fields);
      case 'replace':
        // Planned before the transaction, by prepare(): a replace walks the sheet, a paste parses its block, with turns.
        throw bad('A replace is planned with prepare().');
      case 'directive':
        return this.directive(fields);
      case 'apply_suggestions':
        return this.applySuggestions(fields);
      default:
        throw bad(
          `'op' must be one of set, paste, insert_rows, delete_rows, add_column, remove_column, move_column, fill_down, replace, directive, apply_suggestions.`,
        );
    }
  }

  private sheet(fields: Fields): WorkbookSheetRecord {
    const index = int(fields, 'sheet');
    const sheet = this.sheets.find((candidate) => candidate.sheet_no === index);
    if (!sheet) throw bad(`The workbook has no sheet ${index}: its sheets are 0 to ${this.sheets.length - 1}.`);
    if (sheet.skipped) throw bad(`Sheet '${sheet.name}' is not loaded (its name starts with #, or it is empty): it cannot be edited here.`);
    return sheet;
  }

  private rowIdx(sheet: WorkbookSheetRecord, rowId: unknown): number {
    const row = typeof rowId === 'number' ? this.store.workbooks.row(this.wb, rowId) : undefined;
    if (!row || row.sheet_no !== sheet.sheet_no) throw bad(`Row ${String(rowId)} is not a row of sheet '${sheet.name}'.`);
    return row.idx;
  }

  private columnPlace(sheet: WorkbookSheetRecord, columnId: unknown): number {
    const place = columnsOf(sheet).findIndex((column) => column.id === columnId);
    if (place < 0) throw bad(`Column ${String(columnId)} is not a column of sheet '${sheet.name}'.`);
    return place;
  }

  private set(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    if (!Array.isArray(fields.cells) || fields.cells.length === 0) throw bad("'cells' must list at least one {row_id, column_id, value}.");
    if (fields.cells.length > MAX_NEW_ROWS) throw bad(`At most ${MAX_NEW_ROWS.toLocaleString('en-US')} cells can be set at once.`);
    const cells: [number, number, WorkbookCell][] = fields.cells.map((entry: unknown, index) => {
      const cell = (typeof entry === 'object' && entry !== null ? entry : {}) as Fields;
      this.rowIdx(sheet, cell.row_id);
      this.columnPlace(sheet, cell.column_id);
      return [cell.row_id as number, cell.column_id as number, cellFromRequest(cell.value, `cells[${index}].value`)];
    });
    return { op: 'set', ops: [['cells', sheet.sheet_no, cells]], summary: this.setSummary(sheet, cells) };
  }

  /** What the history calls a set: the cell and its value for one ("Set E2 to “Accueil”"), else how many. */
  private setSummary(sheet: WorkbookSheetRecord, cells: [number, number, WorkbookCell][]): string {
    if (cells.length !== 1) return `Set ${plural(cells.length, 'cell')} in '${sheet.name}'`;
    const [[rowId, columnId, value]] = cells;
    const row = this.store.workbooks.row(this.wb, rowId);
    const place = columnsOf(sheet).findIndex((column) => column.id === columnId);
    const text = cellText(value);
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    const cell = `${columnLetters(place + 1)}${row ? rowNumberOf(sheet, row.idx) : ''}`;
    return text === '' ? `Cleared ${cell} in '${sheet.name}'` : `Set ${cell} to “${shown}” in '${sheet.name}'`;
  }

  private async paste(fields: Fields): Promise<PlannedEdit> {
    const slice = new TimeSlice();
    const sheet = this.sheet(fields);
    const tsv = text(fields, 'tsv', 50 * 1024 * 1024);
    // At a row, or (`index`, the sheet's row count) after the last: a block pasted in a template's first empty row.
    const top =
      fields.row_id === undefined && fields.index !== undefined ? this.endIndex(sheet, fields) : this.rowIdx(sheet, fields.row_id);
    const left = this.columnPlace(sheet, fields.column_id);
    const block = await parseTsvInTurns(tsv, slice);
    const columns = columnsOf(sheet);
    // A loop, not Math.max(...lines): millions of empty lines would overflow the call's arguments.
    let width = 0;
    for (const line of block) width = Math.max(width, line.length);
    if (left + width > columns.length) {
      throw bad(
        `The block is ${plural(width, 'column')} wide and does not fit from column ${left + 1} of the ${columns.length}: add columns first.`,
      );
    }
    const extra = top + block.length - sheet.rows;
    if (extra > MAX_NEW_ROWS)
      throw bad(`The block would add ${plural(extra, 'row')}; paste at most ${MAX_NEW_ROWS.toLocaleString('en-US')} new rows at once.`);
    // Rows past the end are inserted with their cells (their undo is a delete of them): set
    // afterwards, a 100,000-row paste wrote each row twice and its undo emptied 400,000 cells first.
    const firstNew = extra > 0 ? this.store.workbooks.takeRowIds(this.wb, extra) : 0;
    const made: [number, string][] = [];
    const cells: [number, number, WorkbookCell][] = [];
    let insertedCells = 0;
    for (const [offset, line] of block.entries()) {
      if (slice.due()) await slice.turn();
      const idx = top + offset;
      const cellOf = (value: string, column: number): WorkbookCell => cellFromRequest(value, `line ${offset + 1}, cell ${column + 1}`);
      if (idx >= sheet.rows) {
        const given: Record<string, WorkbookCell> = {};
        line.forEach((value, column) => {
          const cell = cellOf(value, column);
          if (cell === null) return;
          given[columns[left + column].id] = cell;
          insertedCells += 1;
        });
        made.push([firstNew + idx - sheet.rows, JSON.stringify(given)]);
        continue;
      }
      const rowId = this.store.workbooks.rowAt(this.wb, sheet.sheet_no, idx)?.row_id;
      if (rowId === undefined) continue;
      line.forEach((value, column) => cells.push([rowId, columns[left + column].id, cellOf(value, column)]));
    }
    const ops: PrimitiveOp[] = extra > 0 ? [['insert', sheet.sheet_no, sheet.rows, made]] : [];
    ops.push(['cells', sheet.sheet_no, cells]);
    return { op: 'paste', ops, summary: `Pasted ${block.length} x ${width} cells in '${sheet.name}'`, insertedCells };
  }

  /** `index` where only the place after the last row is one: a paste there adds its rows. */
  private endIndex(sheet: WorkbookSheetRecord, fields: Fields): number {
    const index = int(fields, 'index');
    if (index !== sheet.rows)
      throw bad(
        `'index' pastes after the last row of sheet '${sheet.name}' only (${sheet.rows}); name a row by its 'row_id' to paste over it.`,
      );
    return index;
  }

  private newRows(sheet: WorkbookSheetRecord, at: number, count: number, rows?: Record<string, WorkbookCell>[]): PrimitiveOp {
    const first = this.store.workbooks.takeRowIds(this.wb, count);
    const columns = new Set(columnsOf(sheet).map((column) => column.id));
    const made: [number, string][] = [];
    for (let offset = 0; offset < count; offset += 1) {
      const given = rows?.[offset] ?? {};
      const cells: Record<string, WorkbookCell> = {};
      for (const [id, value] of Object.entries(given)) {
        if (!columns.has(Number(id))) throw bad(`rows[${offset}]: column ${id} is not a column of sheet '${sheet.name}'.`);
        const cell = cellFromRequest(value, `rows[${offset}].${id}`);
        if (cell !== null) cells[id] = cell;
      }
      made.push([first + offset, JSON.stringify(cells)]);
    }
    return ['insert', sheet.sheet_no, at, made];
  }

  private insertRows(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    const at = int(fields, 'at');
    if (at > sheet.rows)
      throw bad(`'at' is ${at}, past the end of sheet '${sheet.name}' (${plural(sheet.rows, 'row')}): give 0 to ${sheet.rows}.`);
    if (fields.rows !== undefined && !Array.isArray(fields.rows))
      throw new ApiError(400, 'bad-edit', "'rows' must be a list of rows (objects of column id -> value).", [
        { field: 'rows', message: 'must be a list' },
      ]);
    const rows = Array.isArray(fields.rows) ? (fields.rows as Record<string, WorkbookCell>[]) : undefined;
    const count = rows ? rows.length : fields.count === undefined ? 1 : int(fields, 'count', 1);
    if (count < 1 || count > MAX_NEW_ROWS) throw bad(`Insert 1 to ${MAX_NEW_ROWS.toLocaleString('en-US')} rows at once.`);
    if (rows?.some((row) => typeof row !== 'object' || row === null || Array.isArray(row)))
      throw bad("'rows' must be objects of column id -> value.");
    return {
      op: 'insert_rows',
      ops: [this.newRows(sheet, at, count, rows), ...this.gapsOp(sheet, gapsAfterInsert(parseGaps(sheet.row_gaps), at, count))],
      summary: `Inserted ${plural(count, 'row')} in '${sheet.name}'`,
    };
  }

  /** The op that moves the sheet's gaps with its rows, when it has any. */
  private gapsOp(sheet: WorkbookSheetRecord, gaps: RowGaps): PrimitiveOp[] {
    const text = JSON.stringify(gaps);
    return text === sheet.row_gaps ? [] : [['gaps', sheet.sheet_no, text]];
  }

  private deleteRows(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    if (!Array.isArray(fields.row_ids) || fields.row_ids.length === 0) throw bad("'row_ids' must list the ids of the rows to delete.");
    const ids = [...new Set(fields.row_ids as unknown[])];
    const places = ids.map((id) => this.rowIdx(sheet, id));
    const gaps = gapsAfterDelete(parseGaps(sheet.row_gaps), places, sheet.rows - places.length);
    return {
      op: 'delete_rows',
      ops: [['delete', sheet.sheet_no, ids as number[]], ...this.gapsOp(sheet, gaps)],
      summary: `Deleted ${plural(ids.length, 'row')} from '${sheet.name}'`,
    };
  }

  private columnEdit(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    const columns = columnsOf(sheet);
    let next = sheet.next_column;
    let summary: string;
    if (fields.op === 'add_column') {
      const at = int(fields, 'at');
      if (at > columns.length) throw bad(`'at' is ${at}; the sheet has ${plural(columns.length, 'column')}: give 0 to ${columns.length}.`);
      const column: StagedColumn = {
        id: next,
        name: text(fields, 'name', 255),
        group: fields.group === undefined ? '' : text(fields, 'group', 255),
        title: fields.title === undefined ? '' : text(fields, 'title', 255),
      };
      next += 1;
      columns.splice(at, 0, column);
      summary = `Added column '${column.name || column.title}' to '${sheet.name}'`;
    } else {
      const place = this.columnPlace(sheet, fields.column_id);
      const [column] = columns.splice(place, 1);
      if (fields.op === 'move_column') {
        const to = int(fields, 'to');
        if (to > columns.length) throw bad(`'to' is ${to}; give 0 to ${columns.length}.`);
        columns.splice(to, 0, column);
        summary = `Moved column '${column.name || column.title}' in '${sheet.name}'`;
      } else summary = `Removed column '${column.name || column.title}' from '${sheet.name}'`;
    }
    // The loader's own header checks: a header that names nothing is refused now, not at load.
    sheetContext({ ...sheet, columns: JSON.stringify(columns) });
    return { op: fields.op as WorkbookEdit['op'], ops: [['columns', sheet.sheet_no, columns, next]], summary };
  }

  private fillDown(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    const from = int(fields, 'from_index');
    const to = int(fields, 'to_index');
    if (to <= from || to >= sheet.rows) throw bad(`Fill down needs 'from_index' < 'to_index' < ${sheet.rows} (the sheet's rows).`);
    if (to - from > MAX_NEW_ROWS) throw bad(`Fill at most ${MAX_NEW_ROWS.toLocaleString('en-US')} rows at once.`);
    if (!Array.isArray(fields.column_ids) || fields.column_ids.length === 0) throw bad("'column_ids' must list the columns to fill.");
    for (const id of fields.column_ids) this.columnPlace(sheet, id);
    const rows = this.store.workbooks.page(this.wb, sheet.sheet_no, from, to - from + 1);
    const source = parseCells(rows[0].cells);
    const cells: [number, number, WorkbookCell][] = [];
    for (const row of rows.slice(1)) for (const id of fields.column_ids as number[]) cells.push([row.row_id, id, source[id] ?? null]);
    return {
      op: 'fill_down',
      ops: [['cells', sheet.sheet_no, cells]],
      summary: `Filled down ${plural(rows.length - 1, 'row')} in '${sheet.name}'`,
    };
  }

  /**
   * The work an edit does before its write transaction: a replace reads and matches every cell of
   * its range, which may be a million rows, so it runs here with turns for the event loop (the
   * workbook's edits are serial, so no other edit lands meanwhile). Any other edit: undefined.
   */
  async prepare(raw: unknown): Promise<PlannedEdit | undefined> {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
    const fields = raw as Fields;
    if (fields.op === 'replace') return this.replace(fields);
    return fields.op === 'paste' ? this.paste(fields) : undefined;
  }

  private pattern(fields: Fields): CellPattern {
    if (fields.regex !== undefined && typeof fields.regex !== 'boolean') throw bad("'regex' must be true or false.");
    if (fields.match_case !== undefined && typeof fields.match_case !== 'boolean') throw bad("'match_case' must be true or false.");
    return compileCellPattern(text(fields, 'find', MAX_PATTERN), {
      regex: fields.regex === true,
      matchCase: fields.match_case === true,
      field: 'find',
      code: 'bad-edit',
    });
  }

  /** The rows a replace walks: the sheet's, or those of `within` that the sheet has (an index past its end is refused). */
  private range(sheet: WorkbookSheetRecord, within: Fields | undefined): [number, number] {
    const last = sheet.rows - 1;
    const from = within?.from_index === undefined ? 0 : int(within, 'from_index');
    const to = within?.to_index === undefined ? last : int(within, 'to_index');
    if (to > last || from > to)
      throw bad(
        `'within' must name rows of sheet '${sheet.name}' (indexes 0 to ${last}), with 'from_index' <= 'to_index': it has ${from} to ${to}.`,
      );
    return [from, to];
  }

  private async replace(fields: Fields): Promise<PlannedEdit> {
    const pattern = this.pattern(fields);
    const replacement = text(fields, 'replace', MAX_CELL_TEXT);
    if (fields.within !== undefined && (typeof fields.within !== 'object' || fields.within === null || Array.isArray(fields.within)))
      throw bad("'within' must be an object: {sheet, from_index?, to_index?, columns?}.");
    const within = fields.within as Fields | undefined;
    const sheets = within ? [this.sheet(within)] : this.sheets.filter((sheet) => !sheet.skipped);
    const slice = new TimeSlice();
    const ops: PrimitiveOp[] = [];
    let count = 0;
    for (const sheet of sheets) {
      if (within?.columns !== undefined && !Array.isArray(within.columns)) throw bad("'within.columns' must list column ids.");
      const columnIds = within?.columns === undefined ? columnsOf(sheet).map((column) => column.id) : (within.columns as unknown[]);
      for (const id of columnIds) this.columnPlace(sheet, id);
      if (sheet.rows === 0) continue;
      const [from, to] = this.range(sheet, within);
      const cells: [number, number, WorkbookCell][] = [];
      for (let skip = from; skip <= to; skip += 1000) {
        if (slice.due()) await slice.turn();
        for (const row of this.store.workbooks.page(this.wb, sheet.sheet_no, skip, Math.min(1000, to - skip + 1))) {
          if (slice.due()) await slice.turn();
          const current = parseCells(row.cells);
          for (const id of columnIds as number[]) {
            const before = cellText(current[id]);
            if (before === '') continue;
            const after = pattern.replace(before, replacement);
            if (after !== before) cells.push([row.row_id, id, cellFromRequest(after, `row ${row.idx + 1}`)]);
          }
        }
      }
      if (cells.length > 0) ops.push(['cells', sheet.sheet_no, cells]);
      count += cells.length;
    }
    return { op: 'replace', ops, summary: `Replaced in ${plural(count, 'cell')}` };
  }

  /**
   * Each issue of the code in the column takes its own suggestion (a number's text, the nearest
   * choice...), read from the stored issues: the client never lists the rows, so it is one
   * request and one revision for 100,000 of them.
   */
  private applySuggestions(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    const code = text(fields, 'code', 100);
    const columnId = int(fields, 'column_id');
    this.columnPlace(sheet, columnId);
    const cells: [number, number, WorkbookCell][] = [];
    const seen = new Set<number>();
    for (const entry of this.store.workbooks.suggestionsOf(this.wb, sheet.sheet_no, code, columnId)) {
      // Two issues of one code on one cell would set it twice: the first suggestion wins.
      if (seen.has(entry.row_id)) continue;
      seen.add(entry.row_id);
      cells.push([entry.row_id, columnId, (JSON.parse(entry.suggestion) as WorkbookSuggestion).value]);
    }
    if (cells.length > MAX_NEW_ROWS) throw bad(`At most ${MAX_NEW_ROWS.toLocaleString('en-US')} fixes can be applied at once.`);
    if (cells.length === 0) throw bad(`No issue '${code}' in that column of '${sheet.name}' has a suggested fix.`);
    return {
      op: 'apply_suggestions',
      ops: [['cells', sheet.sheet_no, cells]],
      summary: `Applied the suggested fix of ${plural(cells.length, 'cell')} (${code}) in '${sheet.name}'`,
    };
  }

  private directive(fields: Fields): PlannedEdit {
    const sheet = this.sheet(fields);
    if (sheet.directive === null) throw bad(`Sheet '${sheet.name}' has the compact layout: it has no directive in A1.`);
    const directive = text(fields, 'text', 1000).trim();
    sheetContext({ ...sheet, directive });
    return { op: 'directive', ops: [['directive', sheet.sheet_no, directive]], summary: `Directive of '${sheet.name}': ${directive}` };
  }
}
