import type {
  PlanChange,
  PlanTotals,
  WorkbookInfo,
  WorkbookIssue,
  WorkbookLoadInfo,
  WorkbookPlanRow,
  WorkbookRowOutcome,
} from './service/contract/workbook-api';

/**
 * The readable output of `workstation validate|plan|load` (cli-workbook.ts): plain-text tables
 * for a terminal, nothing cut off. Columns are padded to their widest cell up to a cap; a longer
 * cell keeps all its text and only pushes the rest of its own line to the right.
 */
const PAD_CAP = 48;

/** One line per row, columns two spaces apart; the last column is never padded. */
export function table(headers: string[], rows: string[][]): string {
  const clean = (cell: string): string => cell.replace(/[\r\n\t]+/g, ' ');
  const all = [headers, ...rows.map((row) => row.map(clean))];
  const widths = headers.map((_, column) => Math.min(PAD_CAP, Math.max(...all.map((row) => (row[column] ?? '').length))));
  return all
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

export const sheetName = (info: WorkbookInfo, index: number): string =>
  info.sheets.find((sheet) => sheet.index === index)?.name ?? String(index);

export function issueTable(info: WorkbookInfo, issues: WorkbookIssue[]): string {
  const rows = issues.map((issue) => [
    sheetName(info, issue.sheet),
    String(issue.row),
    issue.column,
    issue.severity,
    issue.code,
    issue.suggestion ? `${issue.message} (suggestion: ${issue.suggestion.label})` : issue.message,
  ]);
  return rows.length === 0 ? '' : table(['sheet', 'row', 'column', 'severity', 'code', 'message'], rows);
}

export function validateSummary(info: WorkbookInfo): string {
  const { counts } = info;
  return `${plural(counts.rows, 'row')}: ${plural(counts.errors, 'error')} (in ${plural(counts.rows_with_errors, 'row')}), ${plural(counts.warnings, 'warning')} (in ${plural(counts.rows_with_warnings, 'row')})\n`;
}

const valueText = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

export const changeText = (changes: PlanChange[]): string =>
  changes.map((change) => `${change.field}: ${valueText(change.old)} -> ${valueText(change.new)}`).join('; ');

export function planTable(info: WorkbookInfo, rows: WorkbookPlanRow[]): string {
  const cells = rows.map((row) => [
    sheetName(info, row.sheet),
    String(row.row),
    row.action,
    row.target_pkid ?? '',
    changeText(row.changes),
    row.message ?? '',
  ]);
  return cells.length === 0 ? '' : table(['sheet', 'row', 'action', 'target pkid', 'changes', 'message'], cells);
}

const ACTIONS: (keyof PlanTotals)[] = ['add', 'modify', 'delete', 'unchanged', 'conflict', 'error'];

export function planSummary(totals: PlanTotals): string {
  const rows = ACTIONS.reduce((sum, action) => sum + (totals[action] ?? 0), 0);
  return `${plural(rows, 'row')}: ${ACTIONS.map((action) => `${totals[action] ?? 0} ${action}`).join(', ')}\n`;
}

/** A loaded row as the load table shows it: where it is, and what loading it did (null: it never ran). */
export interface LoadRowView {
  sheet: number;
  sheet_name: string;
  row_id: number;
  row: number;
  outcome: WorkbookRowOutcome | null;
}

export function loadTable(info: WorkbookInfo, rows: LoadRowView[]): string {
  const cells = rows.map((row) => [
    sheetName(info, row.sheet),
    String(row.row),
    row.outcome?.status ?? 'not run',
    row.outcome?.transaction_id ?? '',
    row.outcome?.pkid ?? '',
    row.outcome?.message ?? '',
  ]);
  return cells.length === 0 ? '' : table(['sheet', 'row', 'status', 'transaction id', 'pkid', 'message'], cells);
}

export function loadSummary(load: WorkbookLoadInfo | null): string {
  if (!load) return 'nothing was loaded\n';
  return `${plural(load.total, 'row')}: ${load.loaded} loaded, ${load.failed} failed, ${plural(load.conflicts, 'conflict')}, ${load.not_run} not run (transaction ${load.transaction_id})\n`;
}
