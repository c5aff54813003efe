/**
 * The wire shapes of staged workbooks, `/workstation/workbooks/...` (README: Staged workbooks).
 * Types only, without Node or DOM types: the service, the renderer (tsconfig.web.json includes
 * this file) and the tests import it, so each shape is declared once.
 */

/**
 * A cell as a staged workbook holds it: text, a number, a boolean, or what a read file held
 * that is none of these (a date, an error, a formula without a saved value), so saving writes
 * back what was read. `null` is an empty cell.
 */
export type WorkbookCell =
  | string
  | number
  | boolean
  | null
  /** A number whose cell format matters to its text (leading zeros: `0000`). */
  | { number: number; format: string }
  | { date: string }
  | { error: string }
  | { no_value: true };

/**
 * `staging`: the file is being read; `validating`: its rows are stored (readable) and a full
 * validation runs; `draft`: validated, with errors; `validated`: validated, no error;
 * `planning`: a plan runs; `planned`: the plan is of the current revision; `loading`: a load
 * runs; `loaded`: every row of the last load succeeded; `failed`: staging failed (`problem`
 * says why), or some rows of the last load failed (`load` counts them).
 */
/** `mapping`: a sheet whose headers or name name no model's fields waits for its mapping to be confirmed (mapping-api.ts). */
export type WorkbookState =
  'staging' | 'mapping' | 'validating' | 'draft' | 'validated' | 'planning' | 'planned' | 'loading' | 'loaded' | 'failed';

export type WorkbookSource = 'upload' | 'template' | 'export';

export interface WorkbookColumn {
  /** Stable across moves and removals of other columns: edits name columns by id. */
  id: number;
  /** The column letters where it stands now. */
  letter: string;
  /** The header cell: row 1 (compact layout) or row 2 (directive layout). */
  name: string;
  /** Row 3 and row 4 of the directive layout; '' in the compact layout. */
  group: string;
  title: string;
  /** What the header resolves to: a field path, a meta column (`Action`...), or null when it resolves to nothing. */
  field: string | null;
  required: boolean;
  /** Text-typed (directory numbers): written with the text format, never as numbers. */
  text: boolean;
  /** The field's choices, for a drop-down. */
  choices: string[] | null;
}

export interface WorkbookSheet {
  /** 0-based, in load order (tab order). */
  index: number;
  name: string;
  /** `#` sheets are kept and saved but never validated or loaded. */
  skipped: boolean;
  model_type: string | null;
  layout: 'directive' | 'compact' | null;
  /** Cell A1 of the directive layout; null in the compact layout. */
  directive: string | null;
  /** The Excel row of the first data row (5 directive, 2 compact). */
  first_row: number;
  columns: WorkbookColumn[];
  rows: number;
  errors: number;
  warnings: number;
}

export interface WorkbookSummaryCounts {
  rows: number;
  errors: number;
  warnings: number;
  /** Rows in error (a row with three errors counts once). */
  rows_with_errors: number;
  rows_with_warnings: number;
}

export interface WorkbookInfo {
  id: string;
  name: string;
  owner: string;
  /** Dot path of the node the workbook loads at when a row and its directive name none. */
  hierarchy: string;
  /** The remote profile the workbook targets (checked against its mirror, loaded by `sync push`); null: the Local store. */
  profile: string | null;
  /** For a profile's workbook: the local time of the mirror's pull its checks ran against ("checked against the mirror of 09:40"). */
  checked_against: string | null;
  source: WorkbookSource;
  state: WorkbookState;
  /** Changes with every edit, undo and redo; an edit must name the revision it was made on. */
  revision: number;
  /** The revision whose issues are stored (equal to `revision` once validation has caught up). */
  validated_revision: number | null;
  can_undo: boolean;
  can_redo: boolean;
  counts: WorkbookSummaryCounts;
  /** Why staging failed, when `state` is `failed` before any load; in `mapping`, why the sheet needs one. */
  problem: string | null;
  /** Staged through a mapping of a customer's sheet: whether it was confirmed, and the saved mapping it came from. */
  mapping: { applied: boolean; remembered: string | null } | null;
  created_at: string;
  updated_at: string;
  /** The last plan: the revision it was made on (stale once `revision` moves on) and its totals. */
  plan: { revision: number; totals: PlanTotals } | null;
  /** The last load of this workbook (every row it ran, across retries). */
  load: WorkbookLoadInfo | null;
  /** Only on a revert plan (README: Reverting a load): the transaction id of the load it reverts. */
  reverts?: string;
  sheets: WorkbookSheet[];
}

export interface WorkbookSuggestion {
  /** What applying it does, in words. */
  label: string;
  /** The cell's new value. */
  value: WorkbookCell;
}

export interface WorkbookIssue {
  sheet: number;
  /** Row id (0 for a problem of the whole sheet). */
  row_id: number;
  /** The Excel row as the workbook would be saved now. */
  row: number;
  /** Column id, or null when no single cell is at fault. */
  column_id: number | null;
  column: string;
  field: string;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  suggestion: WorkbookSuggestion | null;
}

export interface WorkbookRow {
  id: number;
  /** The Excel row as the workbook would be saved now. */
  row: number;
  /** 0-based place among the sheet's data rows. */
  index: number;
  /** Column id -> cell; empty cells are left out. */
  cells: Record<string, WorkbookCell>;
  issues: WorkbookIssue[];
  /** What the last plan predicted for the row, or null (no plan, or a row added since). */
  plan: WorkbookPlanEntry | null;
  /** What loading the row did, or null when it has never run. */
  outcome: WorkbookRowOutcome | null;
}

/**
 * GET /workstation/workbooks/<id>/sheets/<n>/rows/?skip=&limit=&after=&before=&only=&code=&column=.
 * `before=<index>`: the last `limit` rows before that index, in sheet order ("previous error").
 */
export interface WorkbookRowPage {
  revision: number;
  /** Rows that pass the filter (in the whole sheet). */
  total: number;
  skip: number;
  rows: WorkbookRow[];
  /**
   * The index of the page's last row when the page is full (more may follow): pass it as
   * `after` to read on with an index seek at any depth, where `skip` walks the rows it passes.
   */
  next_after: number | null;
}

/** GET /workstation/workbooks/<id>/issues/ */
export interface WorkbookIssueList {
  revision: number;
  total: number;
  issues: WorkbookIssue[];
  by_code: { code: string; severity: 'error' | 'warning'; count: number }[];
  by_column: { sheet: number; column_id: number | null; column: string; errors: number; warnings: number }[];
  /** Issues with a suggested fix, per sheet, code and column: the n of "apply to all n like it". */
  fixable: { sheet: number; code: string; column_id: number | null; count: number }[];
}

/** A rectangle of rows (by 0-based index, inclusive) and columns (by id). */
export interface WorkbookSelection {
  sheet: number;
  from_index?: number;
  to_index?: number;
  columns?: number[];
}

export type WorkbookEdit =
  | { op: 'set'; sheet: number; cells: { row_id: number; column_id: number; value: WorkbookCell }[] }
  /** A block copied from Excel or LibreOffice: tab-separated cells, one line a row; rows past the end are added. */
  | { op: 'paste'; sheet: number; row_id: number; column_id: number; tsv: string }
  /** A block pasted after the last row (`index`: the sheet's row count): its rows are added. */
  | { op: 'paste'; sheet: number; index: number; column_id: number; tsv: string }
  /** `cells` per new row (column id -> value); `count` empty rows when absent. */
  | { op: 'insert_rows'; sheet: number; at: number; count?: number; rows?: Record<string, WorkbookCell>[] }
  | { op: 'delete_rows'; sheet: number; row_ids: number[] }
  | { op: 'add_column'; sheet: number; at: number; name: string; title?: string; group?: string }
  | { op: 'remove_column'; sheet: number; column_id: number }
  | { op: 'move_column'; sheet: number; column_id: number; to: number }
  /** Copies the top row's cell of the selection down through its other rows. */
  | { op: 'fill_down'; sheet: number; column_ids: number[]; from_index: number; to_index: number }
  | { op: 'replace'; find: string; replace: string; regex?: boolean; match_case?: boolean; within?: WorkbookSelection }
  /** The directive banner: cell A1 of a directive sheet. */
  | { op: 'directive'; sheet: number; text: string }
  /** Every issue of `code` in the column gets its own suggested fix, in one revision ("apply to all n like it"). */
  | { op: 'apply_suggestions'; sheet: number; code: string; column_id: number };

/** POST /workstation/workbooks/<id>/edits/ */
export interface WorkbookEditRequest {
  /** The revision the edit was made on: any other is refused with 409 `revision-conflict`. */
  revision: number;
  edit: WorkbookEdit;
}

/**
 * POST .../edits/preview/ with `{"edit"}`: what an edit would change, nothing applied (Replace
 * all's confirmation): how many cells, and the first of them with their value now and after.
 */
export interface WorkbookEditPreview {
  success: true;
  summary: string;
  changed: number;
  first: { row: number; column: string; before: string; after: string }[];
}

/** The answer to an edit, an undo or a redo. */
export interface WorkbookEditResult {
  success: true;
  revision: number;
  can_undo: boolean;
  can_redo: boolean;
  /** Cells the edit changed. */
  changed: number;
  /** The rows validated again, and their issues now (every issue of each of those rows). */
  revalidated: number;
  issues: WorkbookIssue[];
  counts: WorkbookSummaryCounts;
}

/** POST /workstation/workbooks/<id>/undo/ and redo/ */
export interface WorkbookUndoRequest {
  revision: number;
}

export interface WorkbookHistoryEntry {
  seq: number;
  /** The edit's op, or `remap`: the rows made anew through a changed mapping. */
  op: WorkbookEdit['op'] | 'remap';
  summary: string;
  username: string;
  at: string;
  /** True for edits that undo has taken back (redo brings them again). */
  undone: boolean;
}

/**
 * POST /workstation/workbooks/, always JSON (`Content-Type: application/json`; anything else is
 * 415). A file is first uploaded as for a bulk load (`POST /api/uploadfiles/`, multipart), then
 * named here by `file`.
 */
export type WorkbookCreateRequest =
  /**
   * One of the caller's own uploads (the newest of that name). `hierarchy` is required, except
   * for a remote `profile`'s workbook, checked against its mirror (at the mirror's home node when none is named).
   */
  | { from: 'upload'; file: string; hierarchy?: string; profile?: string | null }
  | {
      from: 'template';
      model_type: string;
      hierarchy: string;
      template?: string;
      template_name?: string;
      policy?: string;
      policy_name?: string;
      name?: string;
    }
  | { from: 'export'; model_type: string; hierarchy: string; hrefs?: string[]; filter?: Record<string, string>; name?: string }
  /** A search's results, exported (`direction`: down, the default; local; up; all). */
  | { from: 'search'; query: string; hierarchy: string; direction?: 'down' | 'local' | 'up' | 'all'; name?: string };

export interface WorkbookAnswer {
  success: true;
  workbook: WorkbookInfo;
}

export interface WorkbookList {
  workbooks: Omit<WorkbookInfo, 'sheets'>[];
}

/**
 * What a plan predicts for a row: `add`, `modify` (with each changed field), `delete`,
 * `unchanged` (a modify that changes nothing), `conflict` (the store holds what the row clashes
 * with: its key taken, its number not Available) or `error` (the row has other errors).
 */
export type PlanAction = 'add' | 'modify' | 'delete' | 'unchanged' | 'conflict' | 'error';

export type PlanTotals = Record<PlanAction, number>;

export interface PlanChange {
  /** Field name (top level of the model's data). */
  field: string;
  /** JSON values; undefined where the field had no value. */
  old?: unknown;
  new?: unknown;
}

export interface WorkbookPlanEntry {
  action: PlanAction;
  /** The instance a modify, delete or unchanged row works on (null for an add, or a target an earlier row adds). */
  target_pkid: string | null;
  /** For modify: each field whose value changes, old -> new. */
  changes: PlanChange[];
  /** For conflict and error: the first error's message. */
  message: string | null;
}

/** One row of GET /workstation/workbooks/<id>/plan/ */
export interface WorkbookPlanRow extends WorkbookPlanEntry {
  sheet: number;
  row_id: number;
  /** The Excel row. */
  row: number;
}

/** GET /workstation/workbooks/<id>/plan/?skip=&limit=&action= */
export interface WorkbookPlan {
  revision: number;
  /** The revision the plan was made on: null with no plan; another than `revision` means stale. */
  planned_revision: number | null;
  totals: PlanTotals;
  /** Rows that pass the `action` filter. */
  total: number;
  skip: number;
  rows: WorkbookPlanRow[];
}

/** POST /workstation/workbooks/<id>/plan/ and load/: the revision the caller saw. */
export interface WorkbookPlanRequest {
  revision: number;
}

/**
 * POST /workstation/workbooks/<id>/load/. `rows`: `all` (default: every row that has not loaded
 * yet, whether it failed, conflicted or never ran: the first load, and "load the rest" after a
 * crash), or `failed` (only the rows whose last run failed or conflicted: "retry the failed
 * rows"). A row that loaded is never run again. `allow_errors`: run rows that validation finds
 * in error too (they fail as the loader says); without it a workbook with errors is refused.
 */
export interface WorkbookLoadRequest {
  revision: number;
  rows?: 'all' | 'failed';
  allow_errors?: boolean;
}

/** A row's load outcome: `loaded`, `failed`, or `conflict` (its target changed since the plan; it did not run). */
export interface WorkbookRowOutcome {
  status: 'loaded' | 'failed' | 'conflict';
  /** The row's sub-transaction. */
  transaction_id: string;
  message: string;
  /** The instance it made or changed. */
  pkid: string | null;
}

export interface WorkbookLoadInfo {
  /** The parent transaction of the last load (tool/BulkLoad): follow it at /api/tool/Transaction/<id>/. */
  transaction_id: string;
  running: boolean;
  /** Data rows of the workbook's loaded sheets. */
  total: number;
  loaded: number;
  failed: number;
  conflicts: number;
  /** Rows that have never run. */
  not_run: number;
  /**
   * Loaded rows edited since: each is loaded as a modify of the instance it made by the next
   * Load (a warning `loaded-row-changed` on the row says so).
   */
  changed: number;
}

/** The answer to POST .../load/ (202): the parent transaction, and the workbook (state `loading`). */
export interface WorkbookLoadAnswer {
  success: true;
  transaction_id: string;
  /** Rows this load runs. */
  rows: number;
  workbook: WorkbookInfo;
}
