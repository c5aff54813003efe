import type { WorkbookCell } from '../contract/workbook-api';
import { ApiError } from '../errors';
import { isoDateText, type RawCell } from '../sheets/cell-value';
import { numberText } from '../sheets/number-text';

/**
 * A staged cell is what a read cell was (cell-value.ts's RawCell) in JSON: validation reads it
 * back as the same RawCell, so a staged workbook is judged exactly as the file it came from.
 */
export const MAX_CELL_TEXT = 32_767;

export function storedOf(raw: RawCell | undefined): WorkbookCell {
  if (!raw) return null;
  switch (raw.kind) {
    case 'text':
      return raw.text;
    case 'number':
      return raw.numFmt && raw.numFmt !== 'General' ? { number: raw.value, format: raw.numFmt } : raw.value;
    case 'boolean':
      return raw.value;
    case 'date':
      return { date: raw.value.toISOString() };
    case 'error':
      return { error: raw.text };
    case 'no-value':
      return { no_value: true };
  }
}

export function rawOf(cell: WorkbookCell | undefined): RawCell | undefined {
  if (cell === null || cell === undefined || cell === '') return undefined;
  if (typeof cell === 'string') return { kind: 'text', text: cell };
  if (typeof cell === 'number') return { kind: 'number', value: cell };
  if (typeof cell === 'boolean') return { kind: 'boolean', value: cell };
  if ('number' in cell) return { kind: 'number', value: cell.number, numFmt: cell.format };
  if ('date' in cell) return { kind: 'date', value: new Date(cell.date) };
  if ('error' in cell) return { kind: 'error', text: cell.error };
  return { kind: 'no-value' };
}

/** What the cell shows, for find and replace and for TSV copies. */
export function cellText(cell: WorkbookCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number') return numberText(cell).text;
  if (typeof cell === 'boolean') return cell ? 'TRUE' : 'FALSE';
  if ('number' in cell) return numberText(cell.number, cell.format).text;
  if ('date' in cell) return isoDateText(new Date(cell.date));
  if ('error' in cell) return cell.error;
  return '';
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A cell sent by a client, checked: anything else is a 400 naming where it was. */
export function cellFromRequest(value: unknown, where: string): WorkbookCell {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ApiError(400, 'bad-cell', `${where}: a number must be finite.`);
    return value;
  }
  if (typeof value === 'string') {
    if (value.length > MAX_CELL_TEXT) {
      throw new ApiError(
        400,
        'bad-cell',
        `${where}: ${value.length.toLocaleString('en-US')} characters; a cell holds at most ${MAX_CELL_TEXT.toLocaleString('en-US')} (Excel's limit).`,
      );
    }
    return value === '' ? null : value;
  }
  if (isPlainObject(value) && typeof value.number === 'number' && typeof value.format === 'string' && Number.isFinite(value.number)) {
    return { number: value.number, format: value.format.slice(0, 255) };
  }
  throw new ApiError(400, 'bad-cell', `${where}: a cell is text, a number, true or false, or null to empty it.`);
}

/** Column id -> cell, as stored; empty cells are left out. */
export type RowCells = Record<string, WorkbookCell>;

export const parseCells = (json: string): RowCells => JSON.parse(json) as RowCells;

export function setCell(cells: RowCells, columnId: number, value: WorkbookCell): void {
  if (value === null || value === '') delete cells[columnId];
  else cells[columnId] = value;
}

export const sameCell = (a: WorkbookCell | undefined, b: WorkbookCell | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
