import {
  CompactSelection,
  type DataEditorProps,
  type DataEditorRef,
  type EditListItem,
  type GridMouseEventArgs,
  type GridSelection,
  type Item,
  type Rectangle,
} from '@glideapps/glide-data-grid';
import { useCallback, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { WorkbookSheet } from '../../../../main/service/contract/workbook-api';
import { useStores } from '../../store/stores';
import type { CellChange, FindDirection, FindOptions } from '../../store/workbook-store';
import { choiceCellRenderer, editedText } from './choice-cell';
import { gridCommandFor, typesText, type GridCommand } from './grid-keys';

/**
 * The workbook grid's editing, in one place so the view only wires it: every change is one edit
 * of the workbook (one revision, one undo step), whatever its size: a typed cell, a cleared
 * range, a pasted block, a fill down, rows inserted or deleted, a replace.
 */

/** Meta columns (as the service names them) that stay in view while scrolling right, when they lead the sheet. */
const META_COLUMNS: ReadonlySet<string> = new Set(['Hierarchy Node', 'Action', 'CFT Template', 'Unique Identifier (pkid)', 'Comment']);

export interface HoveredCell {
  location: Item;
  bounds: Rectangle;
}

export interface RowSpan {
  from: number;
  to: number;
}

/** The rows a selection covers: rows picked by their markers, or the rows of the selected range. */
export function selectedRows(selection: GridSelection | undefined): RowSpan | undefined {
  const first = selection?.rows.first();
  const last = selection?.rows.last();
  if (first !== undefined && last !== undefined) return { from: first, to: last };
  const range = selection?.current?.range;
  return range ? { from: range.y, to: range.y + range.height - 1 } : undefined;
}

/** How many leading columns are frozen: the meta columns that lead the sheet, and at least the first. */
export function frozenColumns(sheet: WorkbookSheet | undefined): number {
  const columns = sheet?.columns ?? [];
  let lead = 0;
  while (lead < columns.length && META_COLUMNS.has(columns[lead].field ?? '')) lead += 1;
  return Math.min(Math.max(lead, 1), Math.max(columns.length - 1, 0));
}

export function cellSelection([col, row]: Item): GridSelection {
  return {
    current: { cell: [col, row], range: { x: col, y: row, width: 1, height: 1 }, rangeStack: [] },
    rows: CompactSelection.empty(),
    columns: CompactSelection.empty(),
  };
}

const CUSTOM_RENDERERS = [choiceCellRenderer];

/**
 * `lead`: how many read-only columns the grid shows before the sheet's own (grid column c is
 * the sheet's column c - lead); they are frozen too.
 */
export function useGridEditing(
  sheet: WorkbookSheet | undefined,
  selection: GridSelection | undefined,
  setSelection: (selection: GridSelection) => void,
  lead = 0,
) {
  const { workbook } = useStores();
  const gridRef = useRef<DataEditorRef>(null);
  const [finding, setFinding] = useState(false);
  const [hovered, setHovered] = useState<HoveredCell | undefined>();
  const editable = sheet !== undefined && !sheet.skipped;

  const onCellsEdited = useCallback(
    (edits: readonly EditListItem[]): boolean => {
      const cells: CellChange[] = [];
      // Typed in the empty rows after the last (a template's): each such row becomes a new row.
      const added = new Map<number, Record<string, string>>();
      for (const { location, value } of edits) {
        const column = sheet?.columns[location[0] - lead];
        const text = editedText(value);
        if (!column || text === undefined) continue;
        if (sheet && location[1] >= sheet.rows) {
          if (text !== '') added.set(location[1], { ...added.get(location[1]), [String(column.id)]: text });
          continue;
        }
        const row = workbook.getState().rowAt(location[1]);
        // Always text: a directory number typed as 0033... keeps its zeros; '' empties the cell.
        if (row) cells.push({ row_id: row.id, column_id: column.id, value: text === '' ? null : text });
      }
      if (cells.length > 0) void workbook.getState().setCells(cells);
      if (added.size > 0) void workbook.getState().appendRows([...added].sort((a, b) => a[0] - b[0]).map(([, given]) => given));
      return true;
    },
    [workbook, sheet, lead],
  );

  const run = useCallback(
    (command: GridCommand): void => {
      const state = workbook.getState();
      const rows = selectedRows(selection);
      const range = selection?.current?.range;
      if (command === 'undo' || command === 'redo') void state.step(command);
      else if (command === 'find-replace') setFinding(true);
      else if (!editable) return;
      else if (command === 'fill-down' && range && range.height > 1) {
        const columnIds = sheet.columns.slice(Math.max(range.x - lead, 0), range.x + range.width - lead).map((column) => column.id);
        void state.fillDown(columnIds, range.y, range.y + range.height - 1);
      } else if (command === 'insert-rows') {
        // Above the selection, as many as it covers (Excel's Insert); at the end with none.
        const span = rows ?? { from: sheet.rows, to: sheet.rows };
        void state.insertRows(span.from, span.to - span.from + 1);
      } else if (command === 'delete-rows' && rows) void state.deleteRows(rows.from, Math.min(rows.to, sheet.rows - 1));
    },
    [workbook, selection, sheet, editable, lead],
  );

  /** On the whole view, so the shortcuts work from its buttons too; never while text is typed. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    const command = gridCommandFor(event);
    if (!command || typesText(event.target)) return;
    event.preventDefault();
    run(command);
  };

  /**
   * A block from Excel or LibreOffice, pasted at the selected cell as it came (raw TSV, one edit).
   * Read from the paste event rather than by the grid's own paste, which asks for the clipboard
   * permission that the desktop shell refuses every page.
   */
  const onPaste = (event: ClipboardEvent<HTMLElement>): void => {
    const target = event.target;
    if (!(target instanceof Node) || !event.currentTarget.contains(target) || typesText(target) || !editable) return;
    const tsv = event.clipboardData.getData('text/plain');
    const rows = selectedRows(selection);
    const [col, row] = selection?.current?.cell ?? [lead, rows?.from ?? -1];
    const column = sheet.columns[Math.max(col - lead, 0)];
    if (tsv === '' || row < 0 || !column) return;
    event.preventDefault();
    void workbook.getState().paste(row, column.id, tsv);
  };

  /** Moves the selection to the next (or previous) match; no cell chosen: from the top (or the bottom). */
  const findNext = useCallback(
    async (find: string, options: FindOptions, direction: FindDirection = 'next'): Promise<'found' | 'none' | 'failed'> => {
      const found = await workbook.getState().findNext(find, options, selection?.current?.cell[1], direction);
      if (found === 'none' || found === 'failed') return found;
      const place = sheet?.columns.findIndex((column) => column.id === found.columnId) ?? -1;
      if (place < 0) return 'none';
      const col = place + lead;
      setSelection(cellSelection([col, found.index]));
      gridRef.current?.scrollTo(col, found.index);
      return 'found';
    },
    [workbook, selection, sheet, setSelection, lead],
  );

  const onItemHovered = useCallback((args: GridMouseEventArgs): void => {
    setHovered(args.kind === 'cell' ? { location: args.location, bounds: args.bounds } : undefined);
  }, []);

  const gridProps = useMemo(
    (): Partial<DataEditorProps> => ({
      onCellsEdited,
      onItemHovered,
      customRenderers: CUSTOM_RENDERERS,
      // Copy through the cells the grid shows (text, as in the workbook); paste is ours (above).
      getCellsForSelection: true,
      keybindings: { paste: false },
      freezeColumns: lead + frozenColumns(sheet),
    }),
    [onCellsEdited, onItemHovered, sheet, lead],
  );

  return {
    gridRef,
    gridProps,
    onKeyDown,
    onPaste,
    run,
    findNext,
    editable,
    finding,
    closeFind: () => {
      setFinding(false);
      gridRef.current?.focus();
    },
    hovered,
    clearHover: () => setHovered(undefined),
  };
}

export type GridEditing = ReturnType<typeof useGridEditing>;
