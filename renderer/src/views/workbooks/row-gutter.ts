import {
  CompactSelection,
  GridCellKind,
  getDefaultTheme,
  type GridCell,
  type GridColumn,
  type GridSelection,
} from '@glideapps/glide-data-grid';
import type { WorkbookRow, WorkbookSheet } from '../../../../main/service/contract/workbook-api';
import { DARK_GRID_THEME } from '../viewer/grid-theme';

/**
 * The grid's row numbers: a read-only column before the sheet's own, showing each row's Excel
 * row number, the number that messages ("Row 27 (D27)"), the issue list, plans, outcomes and the
 * saved file use. The grid's own row markers count 1..n, which disagreed with all of these as
 * soon as the file had its header above the rows or empty rows between them (a staged sheet
 * keeps only rows with a value: row-gaps.ts). A real column, not a drawing over the markers:
 * the grid gives markers no text of ours, and keeps them out of its accessible table, where this
 * column's numbers are read out with each row.
 *
 * Grid column 0 is this column; grid column c is the sheet's column c - GUTTER.
 */
export const GUTTER = 1;

const GUTTER_ID = 'row-gutter';

/** Wide enough for the largest Excel row number known (the sheet's rows past its first, or any row read). */
export function gutterColumn(sheet: WorkbookSheet | undefined, largestRead: number): GridColumn {
  const largest = Math.max(largestRead, (sheet?.first_row ?? 2) + (sheet?.rows ?? 0));
  return { id: GUTTER_ID, title: 'Row', width: Math.max(44, String(largest).length * 8 + 22) };
}

/** The row's Excel number, drawn as the grid draws its headers (so it reads as a gutter, not data). */
export function gutterCell(row: WorkbookRow | undefined, dark: boolean): GridCell {
  if (!row) return { kind: GridCellKind.Loading, allowOverlay: false };
  const theme = dark ? { ...getDefaultTheme(), ...DARK_GRID_THEME } : getDefaultTheme();
  const text = String(row.row);
  return {
    kind: GridCellKind.Text,
    data: text,
    displayData: text,
    allowOverlay: false,
    readonly: true,
    contentAlign: 'right',
    themeOverride: { bgCell: theme.bgHeader, textDark: theme.textMedium },
  };
}

/**
 * A click on a row's number chooses the whole row, as the grid's row markers did (and Excel's
 * row headers do); with Shift, every row from the rows chosen before to this one.
 */
export function gutterSelection(row: number, shift: boolean, before: GridSelection | undefined): GridSelection {
  const anchor = shift ? (before?.rows.first() ?? before?.current?.cell[1]) : undefined;
  const rows =
    anchor === undefined
      ? CompactSelection.fromSingleSelection(row)
      : CompactSelection.fromSingleSelection([Math.min(anchor, row), Math.max(anchor, row) + 1]);
  return { current: undefined, rows, columns: CompactSelection.empty() };
}
