import * as ExcelJS from 'exceljs';
import { createReadStream } from 'node:fs';
import { ApiError } from '../../main/service/errors';
import { rawCellOf, type RawCell } from '../../main/service/sheets/cell-value';
import { worksheetEntry } from '../../main/service/sheets/read-workbook';
import type { SheetRow } from '../../main/service/sheets/sheet-reader';
import { inspectWorkbookFile } from '../../main/service/sheets/workbook-package';
import type { SheetPart } from '../../main/service/sheets/workbook-xml';
import { readXlsxBook } from '../../main/service/sheets/xlsx-book';
import { sheetRowBatches } from '../../main/service/sheets/xlsx-row-stream';
import { damaged } from '../../main/service/sheets/zip-directory';

/**
 * The rows of every sheet of a workbook as exceljs's streaming reader gave them (the reader the
 * bulk load used before xlsx-row-stream.ts, kept here as the reference it must agree with), and
 * as our own reader gives them: by sheet part in tab order, or the fault that stopped the read.
 */
export type RowsOutcome = { sheets: [string, SheetRow[]][] } | { fault: string };

const READER_OPTIONS = { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' } as const;

const faultOf = (error: unknown): string => {
  if (error instanceof ApiError) return `${error.httpCode} ${error.code}: ${error.message}`;
  throw error;
};

function sheetRowOf(row: ExcelJS.Row): SheetRow {
  const cells = new Map<number, RawCell>();
  row.eachCell((cell, column) => {
    const raw = rawCellOf(cell.value, cell.numFmt);
    if (raw) cells.set(column, raw);
  });
  return { number: row.number, cells };
}

/** exceljs names a sheet `Sheet<n>` after its part when the workbook's relationships do not match. */
function partIndex(sheets: SheetPart[], name: string): number {
  const byName = sheets.findIndex((sheet) => sheet.name === name);
  if (byName >= 0) return byName;
  const number = /^Sheet(\d+)$/.exec(name)?.[1];
  return number ? sheets.findIndex((sheet) => sheet.path === `xl/worksheets/sheet${number}.xml`) : -1;
}

async function exceljsOnce(path: string, sheets: SheetPart[], fileName: string): Promise<Map<string, SheetRow[]>> {
  const byPart = new Map<string, SheetRow[]>();
  const input = createReadStream(path);
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, READER_OPTIONS);
    for await (const worksheet of reader) {
      const name = String((worksheet as unknown as { name?: unknown }).name ?? '');
      const rows: SheetRow[] = [];
      for await (const row of worksheet) rows.push(sheetRowOf(row));
      const part = sheets[partIndex(sheets, name)];
      if (part) byPart.set(part.path, rows);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw damaged(fileName, 'its XML could not be read');
  } finally {
    input.destroy();
  }
  return byPart;
}

export async function exceljsRows(path: string, fileName: string): Promise<RowsOutcome> {
  try {
    const pkg = await inspectWorkbookFile(path, fileName);
    let byPart: Map<string, SheetRow[]>;
    try {
      byPart = await exceljsOnce(path, pkg.sheets, fileName);
    } catch {
      // exceljs's ZIP stream now and then trips on a good file: the old reader tried twice.
      byPart = await exceljsOnce(path, pkg.sheets, fileName);
    }
    const sheets: [string, SheetRow[]][] = [];
    for (const part of pkg.sheets) {
      const rows = byPart.get(part.path);
      if (!rows) throw damaged(fileName, `its sheet '${part.name}' could not be found in the file`);
      sheets.push([part.path, rows]);
    }
    return { sheets };
  } catch (error) {
    return { fault: faultOf(error) };
  }
}

export async function ownRows(path: string, fileName: string): Promise<RowsOutcome> {
  try {
    const pkg = await inspectWorkbookFile(path, fileName);
    const book = await readXlsxBook(path, pkg, fileName);
    const sheets: [string, SheetRow[]][] = [];
    for (const part of pkg.sheets) {
      const rows: SheetRow[] = [];
      for await (const batch of sheetRowBatches(path, worksheetEntry(pkg, part, fileName), book, fileName)) rows.push(...batch);
      sheets.push([part.path, rows]);
    }
    return { sheets };
  } catch (error) {
    return { fault: faultOf(error) };
  }
}

/** Rows in a form `toEqual` compares exactly: cells in their order, dates as their time. */
export function comparable(outcome: RowsOutcome): unknown {
  if ('fault' in outcome) return outcome;
  return outcome.sheets.map(([part, rows]) => ({
    part,
    rows: rows.map((row) => ({
      number: row.number,
      cells: [...row.cells].map(([column, raw]) => [
        column,
        raw.kind === 'date'
          ? { kind: 'date', time: raw.value.getTime() }
          : raw.kind === 'number'
            ? { ...raw, numFmt: raw.numFmt ?? null }
            : raw,
      ]),
    })),
  }));
}
