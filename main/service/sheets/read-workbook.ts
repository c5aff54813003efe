import { createReadStream } from 'node:fs';
import * as ExcelJS from 'exceljs';
import { ApiError } from '../errors';
import { rawCellOf, type RawCell } from './cell-value';
import { SHEET_LIMITS } from './limits';
import { SheetReader, type SheetEvent, type SheetRow } from './sheet-reader';
import type { ParsedWorkbook } from './sheet-types';
import { inspectWorkbookFile, type WorkbookPackage } from './workbook-package';
import type { SheetPart } from './workbook-xml';
import { damaged } from './zip-directory';

export type { SheetEvent } from './sheet-reader';

/**
 * Reads a bulk-load workbook with exceljs's streaming reader, after workbook-package.ts has
 * checked the file: sheets left to right (tab order, whatever order the ZIP stores them in),
 * `#` sheets skipped, rows in order, one event at a time so a caller can keep only what it
 * needs. Whole-file problems are ApiErrors (4xx); problems of a cell are issues on its row.
 */
const READER_OPTIONS = {
  worksheets: 'emit',
  sharedStrings: 'cache',
  hyperlinks: 'ignore',
  // Styles carry the number formats that tell a date from a number and keep zero-padded numbers.
  styles: 'cache',
  entries: 'ignore',
} as const;

/** Room beyond the data rows for headers, `#` sheets and blank styled rows. */
const OTHER_ROWS = 100_000;

interface Counter {
  dataRows: number;
  rowsRead: number;
  maxDataRows: number;
}

export interface ReadOptions {
  /** The data-row limit; tests lower it to reach it quickly. */
  maxDataRows?: number;
}

// exceljs's typings leave out the worksheet name its streaming reader sets.
const nameOf = (worksheet: ExcelJS.stream.xlsx.WorksheetReader): string => String((worksheet as unknown as { name?: unknown }).name ?? '');

/** exceljs names a sheet `Sheet<n>` after its part when the workbook's relationships do not match. */
function partIndex(sheets: SheetPart[], name: string): number {
  const byName = sheets.findIndex((sheet) => sheet.name === name);
  if (byName >= 0) return byName;
  const number = /^Sheet(\d+)$/.exec(name)?.[1];
  return number ? sheets.findIndex((sheet) => sheet.path === `xl/worksheets/sheet${number}.xml`) : -1;
}

/** Faults made from an error inside exceljs (not from our own checks). */
const fromInsideExceljs = new WeakSet<ApiError>();

/**
 * Errors from inside exceljs mean the XML is not what an .xlsx holds. When the reading stops
 * early (a limit, a bad header), exceljs's own generator is closed too.
 */
async function* guarded<T>(source: AsyncIterable<T>, fileName: string): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  try {
    for (;;) {
      let step: IteratorResult<T>;
      try {
        step = await iterator.next();
      } catch (error) {
        done = true;
        if (error instanceof ApiError) throw error;
        const fault = damaged(fileName, 'its XML could not be read');
        fromInsideExceljs.add(fault);
        throw fault;
      }
      if (step.done) {
        done = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (!done) await iterator.return?.();
  }
}

function countRow(counter: Counter, isData: boolean, fileName: string): void {
  counter.rowsRead += 1;
  if (isData) counter.dataRows += 1;
  if (counter.dataRows > counter.maxDataRows || counter.rowsRead > counter.maxDataRows + OTHER_ROWS) {
    throw new ApiError(413, 'too-large', `${fileName} has more than ${counter.maxDataRows.toLocaleString('en-US')} data rows, the limit of one bulk load: split it into several workbooks.`);
  }
}

function sheetRowOf(row: ExcelJS.Row): SheetRow {
  const cells = new Map<number, RawCell>();
  row.eachCell((cell, column) => {
    const raw = rawCellOf(cell.value, cell.numFmt);
    if (raw) cells.set(column, raw);
  });
  return { number: row.number, cells };
}

async function* readWorksheet(worksheet: ExcelJS.stream.xlsx.WorksheetReader, part: SheetPart | undefined, pkg: WorkbookPackage, counter: Counter, fileName: string): AsyncGenerator<SheetEvent> {
  // Every sheet is read to its end, skipped ones too, so exceljs releases its streams.
  const reader = part && !part.name.startsWith('#') ? new SheetReader(part.name, pkg.merges.get(part.path) ?? []) : undefined;
  for await (const excelRow of guarded(worksheet, fileName)) {
    const row = sheetRowOf(excelRow);
    if (!reader) {
      countRow(counter, row.cells.size > 0, fileName);
      continue;
    }
    const events = row.cells.size > 0 ? reader.feed(row) : [];
    countRow(counter, events.some((event) => event.type === 'row'), fileName);
    yield* events;
  }
  if (reader) yield* reader.finish();
}

async function collect(events: AsyncIterable<SheetEvent>): Promise<SheetEvent[]> {
  const all: SheetEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/**
 * The workbook's events in tab order. exceljs's streaming reader now and then trips over its
 * own ZIP stream before the first sheet (seen: 2 reads in 400 of one good file, `this.model` not
 * set yet), on a file our own checks already read whole: such a failure, before anything was
 * yielded, is tried once more.
 */
export async function* streamWorkbook(path: string, fileName: string, options: ReadOptions = {}): AsyncGenerator<SheetEvent> {
  for (let attempt = 1; ; attempt += 1) {
    let yielded = false;
    try {
      for await (const event of streamOnce(path, fileName, options)) {
        yielded = true;
        yield event;
      }
      return;
    } catch (error) {
      const glitch = error instanceof ApiError && fromInsideExceljs.has(error);
      if (!glitch || yielded || attempt >= 2) throw error;
    }
  }
}

/** One pass: a sheet the ZIP stores early waits for those before it in tab order. */
async function* streamOnce(path: string, fileName: string, options: ReadOptions): AsyncGenerator<SheetEvent> {
  const pkg = await inspectWorkbookFile(path, fileName);
  const input = createReadStream(path);
  const counter: Counter = { dataRows: 0, rowsRead: 0, maxDataRows: options.maxDataRows ?? SHEET_LIMITS.dataRows };
  const waiting = new Map<number, SheetEvent[]>();
  let next = 0;
  let sheetsSeen = 0;
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, READER_OPTIONS);
    for await (const worksheet of guarded(reader, fileName)) {
      const index = partIndex(pkg.sheets, nameOf(worksheet));
      const events = readWorksheet(worksheet, pkg.sheets[index], pkg, counter, fileName);
      if (index !== next) {
        waiting.set(index, await collect(events));
        continue;
      }
      for await (const event of events) {
        if (event.type === 'sheet') sheetsSeen += 1;
        yield event;
      }
      for (next += 1; waiting.has(next); next += 1) {
        const held = waiting.get(next) ?? [];
        waiting.delete(next);
        sheetsSeen += held.filter((event) => event.type === 'sheet').length;
        yield* held;
      }
    }
  } finally {
    input.destroy();
  }
  if (next < pkg.sheets.length) throw damaged(fileName, `its sheet '${pkg.sheets[next].name}' could not be found in the file`);
  if (sheetsSeen === 0) {
    throw new ApiError(400, 'empty-workbook', `${fileName} has nothing to load: every sheet is empty or its name starts with #.`);
  }
}

/** The whole workbook in memory: for small workbooks and tests; big ones are streamed. */
export async function readWorkbook(path: string, fileName: string, options: ReadOptions = {}): Promise<ParsedWorkbook> {
  const workbook: ParsedWorkbook = { fileName, sheets: [], issues: [] };
  for await (const event of streamWorkbook(path, fileName, options)) {
    if (event.type === 'sheet') workbook.sheets.push(event.sheet);
    else if (event.type === 'row') {
      workbook.sheets[workbook.sheets.length - 1].rows.push(event.row);
      workbook.issues.push(...event.issues);
    } else workbook.issues.push(...event.issues);
  }
  return workbook;
}
