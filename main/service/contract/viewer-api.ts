/**
 * The wire shapes of the export viewer, `/workstation/viewer/...` (README: Viewing exports): an
 * export or any .xlsx read once, read-only, and shown a page of rows at a time. Types only,
 * without Node or DOM types: the service, the renderer and the tests import it.
 */

/**
 * What a viewer reads. The export and search variants are those of `WorkbookCreateRequest`
 * (workbook-api.ts), and `upload` names a file sent to `/api/uploadfiles/`, so "Edit as
 * workbook" sends the same source to `POST /workstation/workbooks/` unchanged.
 */
export type ViewerSource =
  | { from: 'export'; model_type: string; hierarchy: string; hrefs?: string[]; filter?: Record<string, string> }
  /** `direction`: the search's reach from `hierarchy` (down, the default; local; up; all), as the Search view offers it. */
  | { from: 'search'; query: string; hierarchy: string; direction?: SearchDirection }
  | { from: 'upload'; file: string; hierarchy: string };

export type SearchDirection = 'down' | 'local' | 'up' | 'all';

/** POST /workstation/viewer/: a source, with the name to show (a default is made when absent). */
export type ViewerOpenRequest = ViewerSource & { name?: string };

export interface ViewerColumn {
  /** Column letters, `A`... */
  letter: string;
  /** The header row's text (the titles row in the directive layout); '' when the header cell is empty. */
  title: string;
  /** The field name row of the directive layout (row 2); '' elsewhere. */
  name: string;
  /** The file's width of the column in CSS pixels, or null when the file sets none. */
  width: number | null;
}

export interface ViewerSheet {
  /** 0-based, in tab order. */
  index: number;
  name: string;
  /** A `#` sheet: a loader skips it. */
  skipped: boolean;
  /** Cell A1 when it is a directive (`entity: ...`); null otherwise. */
  directive: string | null;
  /**
   * The rows above the data, shown as the grid's header: the directive layout's four, the file's
   * frozen rows, else row 1.
   */
  header_rows: number;
  /** Columns the file keeps in place when scrolling sideways (at least the first). */
  frozen_columns: number;
  columns: ViewerColumn[];
  /** Data rows (below the header rows) held for viewing. */
  rows: number;
}

export interface ViewerInfo {
  id: string;
  name: string;
  source: ViewerSource;
  sheets: ViewerSheet[];
  /** True when the file held more cells than a viewer keeps: the rows past the cap are not shown. */
  truncated: boolean;
  /** When the viewer is dropped if it is not read again. */
  expires_at: string;
}

export interface ViewerAnswer {
  success: true;
  viewer: ViewerInfo;
}

export interface ViewerRow {
  /** The Excel row number. */
  row: number;
  /** The cells' text by column (0-based), as many as the sheet has columns. */
  cells: string[];
}

/** GET /workstation/viewer/<id>/sheets/<n>/rows/?skip=&limit= */
export interface ViewerRowPage {
  sheet: number;
  total: number;
  skip: number;
  rows: ViewerRow[];
}

export interface ViewerMatch {
  sheet: number;
  /** 0-based data row index (below the header rows). */
  index: number;
  /** 0-based column. */
  column: number;
}

/** GET /workstation/viewer/<id>/find/?text=&limit=: the data cells whose text holds `text`, ignoring case. */
export interface ViewerFindAnswer {
  text: string;
  /** Every match, even past `limit`. */
  total: number;
  /** The first `limit` matches in tab order, then row by row, then left to right. */
  matches: ViewerMatch[];
}
