import { metaText } from '../sheets/field-value';
import { worksheetEntry } from '../sheets/read-workbook';
import type { SheetRow } from '../sheets/sheet-reader';
import { inspectWorkbookFile } from '../sheets/workbook-package';
import { readXlsxBook } from '../sheets/xlsx-book';
import { sheetRowBatches } from '../sheets/xlsx-row-stream';
import type { SourceColumn } from './propose-columns';

/**
 * What a proposal needs of a customer's sheet, read with the one .xlsx reader: its header row
 * (the first row with a value) and a sample of the rows below it, a column at a time. The rest
 * of the sheet is not read: a proposal for 100,000 rows costs what one for 200 costs.
 */
export interface SheetSample {
  name: string;
  headerRow: number;
  columns: SourceColumn[];
  /** Rows read for the sample (at most SAMPLE_ROWS). */
  sampled: number;
}

export const SAMPLE_ROWS = 200;

const textOf = (row: SheetRow, column: number): string => {
  const raw = row.cells.get(column);
  return raw ? (metaText(raw).text ?? '') : '';
};

async function sampleOf(
  path: string,
  fileName: string,
  entry: Parameters<typeof sheetRowBatches>[1],
  book: Awaited<ReturnType<typeof readXlsxBook>>,
  name: string,
): Promise<SheetSample | undefined> {
  let header: SheetRow | undefined;
  const rows: SheetRow[] = [];
  for await (const batch of sheetRowBatches(path, entry, book, fileName)) {
    for (const row of batch) {
      if (row.cells.size === 0) continue;
      if (!header) header = row;
      else rows.push(row);
      if (rows.length >= SAMPLE_ROWS) break;
    }
    if (rows.length >= SAMPLE_ROWS) break;
  }
  if (!header) return undefined;
  const last = Math.max(...header.cells.keys(), ...rows.flatMap((row) => [...row.cells.keys()]));
  const columns: SourceColumn[] = [];
  for (let column = 1; column <= last; column += 1) {
    const values = rows.map((row) => textOf(row, column));
    const heading = textOf(header, column);
    if (heading === '' && values.every((value) => value === '')) continue;
    columns.push({ column, header: heading, values });
  }
  return { name, headerRow: header.number, columns, sampled: rows.length };
}

/** The samples of every sheet with a value, in tab order (`#` sheets left out). */
export async function sampleSheets(path: string, fileName: string): Promise<SheetSample[]> {
  const pkg = await inspectWorkbookFile(path, fileName);
  const book = await readXlsxBook(path, pkg, fileName);
  const samples: SheetSample[] = [];
  for (const part of pkg.sheets) {
    if (part.name.startsWith('#')) continue;
    const sample = await sampleOf(path, fileName, worksheetEntry(pkg, part, fileName), book, part.name);
    if (sample) samples.push(sample);
  }
  return samples;
}
