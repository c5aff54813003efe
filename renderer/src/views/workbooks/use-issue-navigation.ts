import { CompactSelection, type DataEditorRef, type GridSelection } from '@glideapps/glide-data-grid';
import { useCallback, type KeyboardEvent, type RefObject } from 'react';
import { asFault } from '../../api/fault';
import { useStores } from '../../store/stores';
import { cellIssues, findError, type Direction } from './error-navigation';

/** The grid selection of one cell. */
export const cellSelection = (col: number, row: number): GridSelection => ({
  current: { cell: [col, row], range: { x: col, y: row, width: 1, height: 1 }, rangeStack: [] },
  columns: CompactSelection.empty(),
  rows: CompactSelection.empty(),
});

/**
 * F8 / Shift+F8 move the selection to the next or previous error and scroll it into view;
 * Ctrl+. (or Alt+Enter) applies the chosen cell's suggested fix. Grid column c is the sheet's
 * column c - lead (the row numbers come before the sheet's: row-gutter.ts; the info columns
 * after: row-info-columns.ts).
 */
export function useIssueNavigation(
  grid: RefObject<DataEditorRef | null>,
  selection: GridSelection | undefined,
  select: (selection: GridSelection) => void,
  lead = 0,
) {
  const { workbook, client } = useStores();
  const go = useCallback(
    async (direction: Direction): Promise<void> => {
      const cell = selection?.current?.cell;
      // On a row's number (before its first cell): the row's first error is next.
      const from = cell ? { row: cell[1], column: cell[0] - lead } : undefined;
      // The grid takes the keys at once, while the error is looked for: a grid focused with no
      // cell chosen (a click on Next error) chooses its first cell itself, which must come before
      // ours (focused after it, the grid put the selection back on A2).
      grid.current?.focus();
      let found;
      try {
        found = await findError({ client, workbook }, from, direction);
      } catch (error) {
        // Shown by the view's notice with the service's words (a click never fails silently).
        workbook.setState({ fault: asFault(error) });
        return;
      }
      if (!found) return;
      const col = found.column + lead;
      select(cellSelection(col, found.row));
      grid.current?.scrollTo(col, found.row, 'both', 0, 0, { vAlign: 'center' });
    },
    [client, workbook, selection, select, grid, lead],
  );
  const applyChosenFix = useCallback(async (): Promise<boolean> => {
    const cell = selection?.current?.cell;
    if (!cell) return false;
    const state = workbook.getState();
    const sheet = state.info?.sheets.find((candidate) => candidate.index === state.sheet);
    const row = state.rowAt(cell[1]);
    const column = sheet?.columns[cell[0] - lead];
    const fix = cellIssues(row, column?.id).find((issue) => issue.suggestion !== null);
    if (!row || !column || !fix?.suggestion) return false;
    await state.setCell(row.id, column.id, fix.suggestion.value);
    return true;
  }, [selection, workbook, lead]);
  /** Handles the keys it owns; true when it did (the caller then stops). */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): boolean => {
    if (event.key === 'F8') {
      event.preventDefault();
      void go(event.shiftKey ? 'previous' : 'next');
      return true;
    }
    if ((event.key === '.' && (event.ctrlKey || event.metaKey)) || (event.key === 'Enter' && event.altKey)) {
      event.preventDefault();
      void applyChosenFix();
      return true;
    }
    return false;
  };
  return { go, onKeyDown };
}
