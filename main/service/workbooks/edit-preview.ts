import type { WorkbookEditPreview } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import { columnsOf } from './staged-sheet';
import { cellText } from './workbook-cells';
import type { PrimitiveOp } from './workbook-ops';

/** Changes a preview lists: the count covers them all. */
export const PREVIEWED = 10;

/**
 * The cells an edit's ops would set, counted, and the first PREVIEWED of them as a person checks
 * them before saying yes: the Excel row, the column's header, the value now and the value after.
 * Only cells that would change are counted (a replace that finds its own text changes nothing).
 */
export function cellChanges(store: Store, wb: number, ops: readonly PrimitiveOp[]): Pick<WorkbookEditPreview, 'changed' | 'first'> {
  const sheets = new Map(store.workbooks.sheets(wb).map((sheet) => [sheet.sheet_no, sheet]));
  const first: WorkbookEditPreview['first'] = [];
  let changed = 0;
  for (const op of ops) {
    if (op[0] !== 'cells') continue;
    const sheet = sheets.get(op[1]);
    const headers = new Map((sheet ? columnsOf(sheet) : []).map((column) => [column.id, column.title || column.name]));
    for (const [rowId, columnId, value] of op[2]) {
      changed += 1;
      if (first.length >= PREVIEWED) continue;
      const row = store.workbooks.row(wb, rowId);
      const cells = row ? (JSON.parse(row.cells) as Record<string, unknown>) : {};
      first.push({
        row: row ? row.idx + 2 : 0,
        column: headers.get(columnId) ?? String(columnId),
        before: cellText(cells[String(columnId)] as Parameters<typeof cellText>[0]),
        after: cellText(value),
      });
    }
  }
  return { changed, first };
}
