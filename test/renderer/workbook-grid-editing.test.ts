import { CompactSelection, GridCellKind } from '@glideapps/glide-data-grid';
import { describe, expect, it } from 'vitest';
import type { WorkbookColumn, WorkbookSheet } from '../../main/service/contract/workbook-api';
import { editedText, gridCellFor } from '../../renderer/src/views/workbooks/choice-cell';
import { gridCommandFor } from '../../renderer/src/views/workbooks/grid-keys';
import { cellSelection, frozenColumns, selectedRows } from '../../renderer/src/views/workbooks/use-grid-editing';

const keys = (key: string, extra: { shift?: boolean; alt?: boolean; ctrl?: boolean } = {}) => ({
  key,
  ctrlKey: extra.ctrl ?? true,
  metaKey: false,
  shiftKey: extra.shift ?? false,
  altKey: extra.alt ?? false,
});

function column(field: string | null, choices: string[] | null = null): WorkbookColumn {
  return { id: 1, letter: 'A', name: field ?? '', group: '', title: '', field, required: false, text: true, choices };
}

const sheetOf = (fields: (string | null)[]): WorkbookSheet =>
  ({ columns: fields.map((field) => column(field)) }) as unknown as WorkbookSheet;

describe('workbook grid editing', () => {
  it('answers the spreadsheet shortcuts people know, and leaves every other key to the grid', () => {
    expect(gridCommandFor(keys('z'))).toBe('undo');
    expect(gridCommandFor(keys('Z', { shift: true }))).toBe('redo');
    expect(gridCommandFor(keys('y'))).toBe('redo');
    expect(gridCommandFor(keys('d'))).toBe('fill-down');
    expect(gridCommandFor(keys('h'))).toBe('find-replace');
    expect(gridCommandFor(keys('f'))).toBe('find-replace');
    expect(gridCommandFor(keys('+', { shift: true }))).toBe('insert-rows');
    expect(gridCommandFor(keys('=', { shift: true }))).toBe('insert-rows');
    expect(gridCommandFor(keys('-'))).toBe('delete-rows');
    // Typing, copying and moving stay the grid's.
    expect(gridCommandFor(keys('d', { ctrl: false }))).toBeUndefined();
    expect(gridCommandFor(keys('c'))).toBeUndefined();
    expect(gridCommandFor(keys('v'))).toBeUndefined();
    expect(gridCommandFor(keys('d', { alt: true }))).toBeUndefined();
  });

  it('takes the rows of a selection from the row markers, or from the selected range', () => {
    expect(selectedRows(undefined)).toBeUndefined();
    expect(selectedRows(cellSelection([2, 4]))).toEqual({ from: 4, to: 4 });
    const range = {
      ...cellSelection([0, 3]),
      current: { cell: [0, 3] as const, range: { x: 0, y: 3, width: 2, height: 3 }, rangeStack: [] },
    };
    expect(selectedRows(range)).toEqual({ from: 3, to: 5 });
    const marked = { columns: CompactSelection.empty(), rows: CompactSelection.fromSingleSelection([7, 10]) };
    expect(selectedRows(marked)).toEqual({ from: 7, to: 9 });
  });

  it('freezes the meta columns that lead a sheet, at least the first, never every column', () => {
    expect(frozenColumns(sheetOf(['Hierarchy Node', 'Action', 'line.directorynumber', 'device']))).toBe(2);
    expect(frozenColumns(sheetOf(['line.directorynumber', 'Hierarchy Node', 'device']))).toBe(1);
    expect(frozenColumns(sheetOf(['Hierarchy Node', 'Action']))).toBe(1);
    expect(frozenColumns(undefined)).toBe(0);
  });

  it('makes a drop-down cell for a column with choices and a text cell elsewhere; an edit of either reads as text', () => {
    const choice = gridCellFor(column('Action', ['add', 'modify', 'delete']), 'modify', { readonly: false });
    expect(choice).toMatchObject({
      kind: GridCellKind.Custom,
      copyData: 'modify',
      data: { value: 'modify', choices: ['add', 'modify', 'delete'] },
    });
    expect(editedText(choice)).toBe('modify');
    const text = gridCellFor(column('line.directorynumber'), '0033140001053', { readonly: false });
    expect(text).toMatchObject({ kind: GridCellKind.Text, data: '0033140001053' });
    // Never a number: the leading zeros of a directory number stay.
    expect(editedText(text)).toBe('0033140001053');
  });
});
