import type { WorkbookIssue, WorkbookRow, WorkbookRowPage, WorkbookSheet } from '../../../../main/service/contract/workbook-api';
import type { ApiClient } from '../../api/api-client';
import { isFiltered } from '../../store/workbook-filter';
import type { WorkbookStore } from '../../store/workbook-store';

/**
 * "Next error" (F8) and "previous error" (Shift+F8) from the current cell: first along the
 * current row, then the nearest row with an error after (or before) it, which the service finds
 * with an index seek (`only=errors&after=`/`before=`, limit 1) at any depth of a million rows;
 * past the last error it wraps to the first. Under a filter every listed row has issues, so the
 * next one is simply the next grid row.
 */
export interface CellPlace {
  /** Grid row (the sheet row's index when no filter is on). */
  row: number;
  /** Place among the sheet's columns (the grid column: the info columns come after them). */
  column: number;
}

export type Direction = 'next' | 'previous';

/** Column places of a row's issues (errors only unless `anySeverity`), in column order; a row-wide issue stands at the first column. */
export function issuePlaces(row: WorkbookRow, sheet: WorkbookSheet, anySeverity = false): number[] {
  const places = new Set<number>();
  for (const issue of row.issues) {
    if (!anySeverity && issue.severity !== 'error') continue;
    const place = issue.column_id === null ? 0 : sheet.columns.findIndex((column) => column.id === issue.column_id);
    places.add(Math.max(0, place));
  }
  return [...places].sort((a, b) => a - b);
}

const pick = (places: number[], direction: Direction): number | undefined => (direction === 'next' ? places[0] : places[places.length - 1]);

export interface NavigationDeps {
  client: ApiClient;
  workbook: WorkbookStore;
}

/** Where the next (or previous) error is, or undefined when the sheet shows none. */
export async function findError(deps: NavigationDeps, from: CellPlace | undefined, direction: Direction): Promise<CellPlace | undefined> {
  const state = deps.workbook.getState();
  const sheet = state.info?.sheets.find((candidate) => candidate.index === state.sheet);
  if (!state.id || !sheet) return undefined;
  const anySeverity = state.filter.only === 'warnings' || state.filter.code !== undefined;
  if (from) {
    const current = await state.readRow(from.row);
    if (current) {
      const along = issuePlaces(current, sheet, anySeverity).filter((place) =>
        direction === 'next' ? place > from.column : place < from.column,
      );
      const place = pick(along, direction);
      if (place !== undefined) return { row: from.row, column: place };
    }
  }
  if (isFiltered(state.filter)) return stepFiltered(deps, sheet, from, direction, anySeverity);
  const seek = async (query: Record<string, number>): Promise<WorkbookRow | undefined> => {
    const answer = await deps.client.get<WorkbookRowPage>(
      `/workstation/workbooks/${encodeURIComponent(state.id as string)}/sheets/${sheet.index}/rows/`,
      { only: 'errors', limit: 1, ...query },
    );
    return answer.rows[0];
  };
  // The service takes row indexes from 0: "from the top" is no `after` at all (`after=-1` was a
  // 400 shown raw, for F8 with no cell chosen and for every wrap past the last error).
  const fromTop = (): Promise<WorkbookRow | undefined> => seek({});
  const fromBottom = (): Promise<WorkbookRow | undefined> => seek({ before: sheet.rows });
  const found =
    direction === 'next'
      ? from
        ? ((await seek({ after: from.row })) ?? (await fromTop()))
        : await fromTop()
      : from
        ? ((await seek({ before: from.row })) ?? (await fromBottom()))
        : await fromBottom();
  if (!found) return undefined;
  const place = pick(issuePlaces(found, sheet), direction);
  return { row: found.index, column: place ?? 0 };
}

async function stepFiltered(
  deps: NavigationDeps,
  sheet: WorkbookSheet,
  from: CellPlace | undefined,
  direction: Direction,
  anySeverity: boolean,
): Promise<CellPlace | undefined> {
  const state = deps.workbook.getState();
  const rows = state.filteredRows ?? 0;
  if (rows === 0) return undefined;
  const start = from?.row ?? (direction === 'next' ? -1 : rows);
  // Wraps once around the filtered rows; each holds an issue, so this ends at the first row read.
  for (let step = 1; step <= rows; step += 1) {
    const index = (((direction === 'next' ? start + step : start - step) % rows) + rows) % rows;
    const row = await state.readRow(index);
    if (!row) return undefined;
    const place = pick(issuePlaces(row, sheet, anySeverity), direction) ?? pick(issuePlaces(row, sheet, true), direction);
    if (place !== undefined) return { row: index, column: place };
  }
  return undefined;
}

/** The issues of one cell of a row (a row-wide issue belongs to no cell). */
export const cellIssues = (row: WorkbookRow | undefined, columnId: number | undefined): WorkbookIssue[] =>
  row?.issues.filter((issue) => issue.column_id === columnId) ?? [];
