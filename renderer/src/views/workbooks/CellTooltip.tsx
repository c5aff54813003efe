import { useSlice, useStores } from '../../store/stores';
import type { HoveredCell } from './use-grid-editing';
import type { WorkbookSheet } from '../../../../main/service/contract/workbook-api';

/**
 * The issues of the cell under the pointer, beside it. The canvas cells cannot carry a title;
 * keyboard and screen reader users get the same messages in the grid's live region below it.
 */
export function CellTooltip({
  hovered,
  sheet,
  lead = 0,
}: {
  hovered: HoveredCell | undefined;
  sheet: WorkbookSheet | undefined;
  lead?: number;
}) {
  const { workbook } = useStores();
  // Read again when pages change: the hovered row may arrive, or its issues change, under a still pointer.
  useSlice('workbook', (state) => state.version);
  if (!hovered || !sheet) return null;
  const [col, row] = hovered.location;
  const column = sheet.columns[col - lead];
  const found = col >= 0 && row >= 0 ? workbook.getState().rowAt(row) : undefined;
  const issues = found?.issues.filter((issue) => issue.column_id === column?.id) ?? [];
  if (!column || !found || issues.length === 0) return null;
  return (
    <div
      className="cell-tooltip"
      role="tooltip"
      data-testid="cell-tooltip"
      style={{ left: hovered.bounds.x, top: hovered.bounds.y + hovered.bounds.height + 4 }}
    >
      {issues.map((issue, at) => (
        <p key={at} className={`cell-issue ${issue.severity}`}>
          <strong>
            {column.letter}
            {found.row}
          </strong>{' '}
          {issue.severity}: {issue.message}
        </p>
      ))}
    </div>
  );
}
