import { ApiError } from '../../main/service/errors';
import type { RawCell } from '../../main/service/sheets/cell-value';
import { worksheetEntry } from '../../main/service/sheets/read-workbook';
import type { SheetRow } from '../../main/service/sheets/sheet-reader';
import { columnLetters } from '../../main/service/sheets/sheet-xml-scan';
import { inspectWorkbookFile } from '../../main/service/sheets/workbook-package';
import { readXlsxBook } from '../../main/service/sheets/xlsx-book';
import { sheetRowBatches } from '../../main/service/sheets/xlsx-row-stream';
import { dateText, sameValue, sheetjsBook, valueText, type CorpusSheet, type CorpusValue } from './sheets-reference-sheetjs';

/**
 * Our reader against the reference reader (SheetJS, sheets-reference-sheetjs.ts), for the corpus
 * test and the hand-written sheets: our rows in the reference's normalized form, and where the
 * two differ, cell by cell.
 */
export type RowsOutcome = { sheets: [string, SheetRow[]][] } | { fault: string };

/** The rows of every worksheet, by part in tab order, as our reader gives them, or its fault. */
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
    if (error instanceof ApiError) return { fault: `${error.httpCode} ${error.code}: ${error.message}` };
    throw error;
  }
}

function ownValue(raw: RawCell, date1904: boolean): CorpusValue | undefined {
  switch (raw.kind) {
    case 'text':
      return raw.text === '' ? undefined : { kind: 'text', text: raw.text };
    case 'number':
      return { kind: 'number', value: raw.value };
    case 'boolean':
      return { kind: 'boolean', value: raw.value };
    case 'error':
      return { kind: 'error', text: raw.text };
    case 'date':
      return { kind: 'date', iso: dateText(raw.value, date1904) };
    case 'no-value':
      return undefined;
  }
}

export type OwnBook = { sheets: CorpusSheet[] } | { fault: string };

/** Our reading of a workbook in the reference's form: worksheets by name, cells by A1 address. */
export async function ownBook(path: string, name: string, date1904: boolean): Promise<OwnBook> {
  const outcome = await ownRows(path, name);
  if ('fault' in outcome) return outcome;
  const { sheets: parts } = await inspectWorkbookFile(path, name);
  const names = new Map(parts.map((part) => [part.path, part.name]));
  return {
    sheets: outcome.sheets.map(([part, rows]) => {
      const cells = new Map<string, CorpusValue>();
      for (const row of rows) {
        for (const [column, raw] of row.cells) {
          const value = ownValue(raw, date1904);
          if (value) cells.set(`${columnLetters(column)}${row.number}`, value);
        }
      }
      return { name: names.get(part) ?? part, cells };
    }),
  };
}

/** A1 addresses in reading order: row, then column. */
function addressOrder(a: string, b: string): number {
  const [, ca, ra] = /^([A-Z]+)(\d+)$/.exec(a) ?? [];
  const [, cb, rb] = /^([A-Z]+)(\d+)$/.exec(b) ?? [];
  return Number(ra) - Number(rb) || ca.length - cb.length || (ca < cb ? -1 : ca > cb ? 1 : 0);
}

export interface CellDifference {
  cell: string;
  ours: string;
  sheetjs: string;
}

export interface Comparison {
  sheetList?: string;
  cells: CellDifference[];
}

export function compareBooks(ours: CorpusSheet[], theirs: CorpusSheet[]): Comparison {
  const comparison: Comparison = { cells: [] };
  const ourNames = ours.map((sheet) => sheet.name);
  const theirNames = theirs.map((sheet) => sheet.name);
  if (JSON.stringify(ourNames) !== JSON.stringify(theirNames)) {
    comparison.sheetList = `worksheets: ours ${JSON.stringify(ourNames)}, SheetJS ${JSON.stringify(theirNames)}`;
  }
  for (const sheet of theirs) {
    const own = ours.find((candidate) => candidate.name === sheet.name);
    if (!own) continue;
    const addresses = [...new Set([...sheet.cells.keys(), ...own.cells.keys()])].sort(addressOrder);
    for (const address of addresses) {
      const a = own.cells.get(address);
      const b = sheet.cells.get(address);
      if (!sameValue(a, b)) comparison.cells.push({ cell: `${sheet.name}!${address}`, ours: valueText(a), sheetjs: valueText(b) });
    }
  }
  return comparison;
}

/** Where our reader and the reference read a file differently, as lines to print; none when they agree. */
export async function referenceDifferences(path: string, name = 'book.xlsx'): Promise<string[]> {
  const reference = sheetjsBook(path);
  const ours = await ownBook(path, name, 'sheets' in reference && reference.date1904);
  if ('refused' in reference) return [`SheetJS refuses it (${reference.refused}); ours: ${'fault' in ours ? ours.fault : 'read it'}`];
  if ('fault' in ours) return [`our reader refuses it: ${ours.fault}`];
  const comparison = compareBooks(ours.sheets, reference.sheets);
  return [
    ...(comparison.sheetList ? [comparison.sheetList] : []),
    ...comparison.cells.map((difference) => `${difference.cell}: ours ${difference.ours}, SheetJS ${difference.sheetjs}`),
  ];
}
