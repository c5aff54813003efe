import type { WorkbookCell } from '../../../main/service/contract/workbook-api';

/** A staged cell's text as the grid shows and edits it, and as a find matches it. */
export function cellText(cell: WorkbookCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'object') {
    if ('number' in cell) return String(cell.number);
    if ('date' in cell) return cell.date.slice(0, 10);
    if ('error' in cell) return cell.error;
    return '';
  }
  return String(cell);
}
