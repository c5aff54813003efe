import { looksLikeFormula, type CellValue } from '../sheets/write-cells';
import { writeWorkbook } from '../sheets/write-workbook';
import type { Store } from '../domain/store';
import type { WorkbookRecord } from '../store/workbooks-repo';
import { issuesSheet } from './workbook-save';

/**
 * A workbook's issues as a report to send or keep (issue 32, point 7: "Download issues"): one row
 * per issue (sheet, Excel row, column, severity, code, message), as an .xlsx sheet or as CSV. In
 * CSV a value that Excel would take for a formula is given a leading quote, as the saved
 * workbooks write such text as text: a report opened in Excel never runs what a cell said.
 */
export type IssuesFormat = 'xlsx' | 'csv';

function csvCell(value: CellValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const safe = looksLikeFormula(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function issuesFile(
  store: Store,
  record: WorkbookRecord,
  format: IssuesFormat,
): Promise<{ bytes: Uint8Array; type: string; fileName: string }> {
  const sheet = issuesSheet(store, record);
  const base = record.name.replace(/\.xlsx$/i, '');
  if (format === 'xlsx') {
    const bytes = await writeWorkbook([sheet]);
    return { bytes, type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileName: `${base} issues.xlsx` };
  }
  const lines = [sheet.columns.map((column) => column.name), ...sheet.rows].map((row) => row.map(csvCell).join(','));
  // A byte-order mark: Excel reads the file as UTF-8 (accents, non-Latin names) only with it.
  return {
    bytes: new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`),
    type: 'text/csv; charset=utf-8',
    fileName: `${base} issues.csv`,
  };
}
