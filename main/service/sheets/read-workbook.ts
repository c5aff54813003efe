import { ApiError } from '../errors';
import { SHEET_LIMITS } from './limits';
import { SheetReader, type SheetEvent, type SheetRow } from './sheet-reader';
import type { ParsedWorkbook } from './sheet-types';
import { entryOf, inspectWorkbookFile, type WorkbookPackage } from './workbook-package';
import type { SheetPart } from './workbook-xml';
import { readXlsxBook } from './xlsx-book';
import { sheetRowBatches } from './xlsx-row-stream';
import { damaged, type ZipEntry } from './zip-directory';

export type { SheetEvent } from './sheet-reader';

/**
 * Reads a bulk-load workbook, after workbook-package.ts has checked the file: sheets left to
 * right (tab order, whatever order the ZIP stores them in), each read straight from its ZIP entry
 * (xlsx-row-stream.ts), `#` sheets skipped, rows in order, one event at a time so a caller can
 * keep only what it needs. Whole-file problems are ApiErrors (4xx); problems of a cell are issues
 * on its row.
 */

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

function countRow(counter: Counter, isData: boolean, fileName: string): void {
  counter.rowsRead += 1;
  if (isData) counter.dataRows += 1;
  if (counter.dataRows > counter.maxDataRows || counter.rowsRead > counter.maxDataRows + OTHER_ROWS) {
    throw new ApiError(
      413,
      'too-large',
      `${fileName} has more than ${counter.maxDataRows.toLocaleString('en-US')} data rows, the limit of one bulk load: split it into several workbooks.`,
    );
  }
}

/** The ZIP entry of a sheet of the workbook's list. */
export function worksheetEntry(pkg: WorkbookPackage, part: SheetPart, fileName: string): ZipEntry {
  const entry = entryOf(pkg, part.path);
  if (!entry) throw damaged(fileName, `its sheet '${part.name}' could not be found in the file`);
  return entry;
}

/**
 * The events of one batch of a sheet's rows; a `#` sheet (no reader) is only counted. A fault
 * (a limit, a bad header) comes after the events of the rows before it, as if row by row.
 */
function eventsOf(
  rows: SheetRow[],
  reader: SheetReader | undefined,
  counter: Counter,
  fileName: string,
): { events: SheetEvent[]; fault?: unknown } {
  const events: SheetEvent[] = [];
  try {
    for (const row of rows) {
      // A row without a value is no row: it is neither read nor counted (a sheet's limit is by content).
      if (row.cells.size === 0) continue;
      if (!reader) {
        countRow(counter, true, fileName);
        continue;
      }
      const fed = reader.feed(row);
      countRow(
        counter,
        fed.some((event) => event.type === 'row'),
        fileName,
      );
      events.push(...fed);
    }
  } catch (fault) {
    return { events, fault };
  }
  return { events };
}

/**
 * The workbook's events in tab order, as they come: an array per batch of rows read. One
 * generator from the rows to the caller, and a step of it per batch, not per event: each step
 * of an async generator costs a few promise turns, which at 100,000 rows a caller notices.
 */
export async function* streamWorkbookBatches(path: string, fileName: string, options: ReadOptions = {}): AsyncGenerator<SheetEvent[]> {
  const pkg = await inspectWorkbookFile(path, fileName);
  const book = await readXlsxBook(path, pkg, fileName);
  const counter: Counter = { dataRows: 0, rowsRead: 0, maxDataRows: options.maxDataRows ?? SHEET_LIMITS.dataRows };
  let sheetsSeen = 0;
  const seen = (events: SheetEvent[]): SheetEvent[] => {
    for (const event of events) if (event.type === 'sheet') sheetsSeen += 1;
    return events;
  };
  for (const part of pkg.sheets) {
    const entry = worksheetEntry(pkg, part, fileName);
    // `#` sheets are read too: their rows count towards the limit on rows read.
    const reader = part.name.startsWith('#') ? undefined : new SheetReader(part.name, pkg.merges.get(part.path) ?? []);
    for await (const rows of sheetRowBatches(path, entry, book, fileName)) {
      const { events, fault } = eventsOf(rows, reader, counter, fileName);
      if (events.length > 0) yield seen(events);
      if (fault !== undefined) throw fault;
    }
    const tail = reader ? reader.finish() : [];
    if (tail.length > 0) yield seen(tail);
  }
  if (sheetsSeen === 0) {
    throw new ApiError(400, 'empty-workbook', `${fileName} has nothing to load: every sheet is empty or its name starts with #.`);
  }
}

/** The workbook's events in tab order, one at a time. */
export async function* streamWorkbook(path: string, fileName: string, options: ReadOptions = {}): AsyncGenerator<SheetEvent> {
  for await (const events of streamWorkbookBatches(path, fileName, options)) yield* events;
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
