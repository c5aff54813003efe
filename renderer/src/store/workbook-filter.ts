/**
 * Which rows of the shown sheet the grid lists: all of them, or those the issue tools narrow it
 * to ("only rows with errors", a code or a column of the issue panel). The service filters (a
 * million rows never come to the window); the grid's row n is then the filter's n-th row.
 */
export interface RowFilter {
  only?: 'errors' | 'warnings';
  /** Rows with an issue of this code. */
  code?: string;
  /** Rows with an issue in this column (by id). */
  column?: number;
}

export const NO_FILTER: RowFilter = {};

export const isFiltered = (filter: RowFilter): boolean =>
  filter.only !== undefined || filter.code !== undefined || filter.column !== undefined;

/** The rows endpoint's query parameters of a filter. */
export function filterQuery(filter: RowFilter): Record<string, string | number | undefined> {
  return { only: filter.only, code: filter.code, column: filter.column };
}

/** What the filter shows, in words (the toolbar says why rows are missing). */
export function filterText(filter: RowFilter, columnName?: string): string {
  const parts: string[] = [];
  if (filter.only) parts.push(`rows with ${filter.only}`);
  if (filter.code) parts.push(`issue ${filter.code}`);
  if (filter.column !== undefined) parts.push(`column ${columnName ?? filter.column}`);
  return parts.join(', ');
}
