import type {
  WorkbookCell,
  WorkbookInfo,
  WorkbookIssue,
  WorkbookIssueList,
  WorkbookRow,
  WorkbookRowPage,
  WorkbookSheet,
  WorkbookSource,
  WorkbookState,
  WorkbookSuggestion,
  WorkbookSummaryCounts,
} from '../contract/workbook-api';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import { columnLetters } from '../sheets/sheet-xml-scan';
import type { WorkbookIssueRecord, WorkbookRecord, WorkbookRowRecord, WorkbookSheetRecord } from '../store/workbooks-repo';
import type { OutcomeRecord, PlanRecord } from '../store/workbook-runs-repo';
import { columnsAnswer, columnsOf, firstRowOf, rowNumberOf, sheetContext, type SheetContext } from './staged-sheet';
import type { StoredIssue } from './staged-validator';
import type { WorkbookPlace } from './staged-workbooks';
import { TimeSlice, type CellPattern } from './cell-pattern';
import { cellText, parseCells, type RowCells } from './workbook-cells';
import { loadInfo, outcomeOf, planEntryOf, planInfo } from './workbook-run-views';

/**
 * The answers of the workbook endpoints, built from the tables: a workbook with its sheets and
 * counts, a page of rows with their issues, the issue list with counts per code and column.
 */
function contextOf(sheet: WorkbookSheetRecord): SheetContext | undefined {
  if (sheet.skipped) return undefined;
  try {
    return sheetContext(sheet);
  } catch {
    return undefined;
  }
}

const sheetIssuesOf = (sheet: WorkbookSheetRecord): StoredIssue[] => JSON.parse(sheet.sheet_issues) as StoredIssue[];

export function countsOf(store: Store, wb: number, sheets = store.workbooks.sheets(wb)): WorkbookSummaryCounts {
  let errors = 0;
  let warnings = 0;
  let rowsWithErrors = 0;
  let rowsWithWarnings = 0;
  for (const sheet of sheets) {
    errors += sheet.errors;
    warnings += sheet.warnings;
    rowsWithErrors += sheet.rows_with_errors;
    rowsWithWarnings += sheet.rows_with_warnings;
    for (const issue of sheetIssuesOf(sheet)) {
      if (issue.severity === 'error') errors += 1;
      else warnings += 1;
    }
  }
  const rows = sheets.filter((sheet) => !sheet.skipped).reduce((sum, sheet) => sum + sheet.rows, 0);
  return { rows, errors, warnings, rows_with_errors: rowsWithErrors, rows_with_warnings: rowsWithWarnings };
}

/** A workbook staged through a customer sheet's mapping: whether it was confirmed, and the saved mapping it came from. */
function mappingInfo(store: Store, record: WorkbookRecord): WorkbookInfo['mapping'] {
  const found = store.mappings.workbookMapping(record.wb);
  if (!found) return null;
  const remembered = found.remembered === null ? undefined : store.mappings.saved(found.remembered);
  return { applied: found.applied === 1, remembered: remembered?.name ?? null };
}

/** The workbook as answered; `books` says where it is checked (the Local store, or a profile's mirror). */
export function workbookInfo(
  deps: { store: Store; workbooks: { placeOf(record: WorkbookRecord): WorkbookPlace } },
  record: WorkbookRecord,
  withSheets = true,
): WorkbookInfo {
  const { store } = deps;
  const sheets = store.workbooks.sheets(record.wb);
  const byColumn = withSheets ? store.workbooks.issuesByColumn(record.wb) : [];
  const info: WorkbookInfo = {
    id: record.id,
    name: record.name,
    owner: record.owner,
    ...deps.workbooks.placeOf(record),
    source: record.source as WorkbookSource,
    state: record.state as WorkbookState,
    revision: record.revision,
    validated_revision: record.validated_revision,
    can_undo: record.head > 0,
    can_redo: store.workbooks.revision(record.wb, record.head + 1) !== undefined,
    counts: countsOf(store, record.wb, sheets),
    problem: record.problem,
    mapping: mappingInfo(store, record),
    created_at: record.created_at,
    updated_at: record.updated_at,
    plan: planInfo(record),
    load: loadInfo(store, record),
    sheets: [],
  };
  const reverted = store.reverts.ofWorkbook(record.id);
  if (reverted) info.reverts = reverted.original_id;
  if (!withSheets) return info;
  info.sheets = sheets.map((sheet): WorkbookSheet => {
    const own = sheetIssuesOf(sheet);
    const rowCounts = byColumn.filter((entry) => entry.sheet_no === sheet.sheet_no);
    return {
      index: sheet.sheet_no,
      name: sheet.name,
      skipped: sheet.skipped === 1,
      model_type: sheet.model_type,
      layout: sheet.skipped ? null : sheet.directive === null ? 'compact' : 'directive',
      directive: sheet.directive,
      first_row: firstRowOf(sheet),
      columns: columnsAnswer(contextOf(sheet), columnsOf(sheet)),
      rows: sheet.rows,
      errors: rowCounts.reduce((sum, entry) => sum + entry.errors, 0) + own.filter((issue) => issue.severity === 'error').length,
      warnings: rowCounts.reduce((sum, entry) => sum + entry.warnings, 0) + own.filter((issue) => issue.severity === 'warning').length,
    };
  });
  return info;
}

function issueOf(
  record: Pick<WorkbookIssueRecord, 'column_id' | 'field' | 'severity' | 'code' | 'message' | 'suggestion'>,
  sheet: WorkbookSheetRecord,
  rowId: number,
  idx: number | null,
): WorkbookIssue {
  return {
    sheet: sheet.sheet_no,
    row_id: rowId,
    row: idx === null ? 0 : rowNumberOf(sheet, idx),
    column_id: record.column_id,
    column: record.column_id === null ? '' : (viewOf(sheet).letters.get(record.column_id) ?? ''),
    field: record.field,
    severity: record.severity,
    code: record.code,
    message: record.message,
    suggestion: record.suggestion === null ? null : (JSON.parse(record.suggestion) as WorkbookSuggestion),
  };
}

/** What answering a sheet's rows and issues asks per row and per issue, worked out once per sheet record read. */
interface SheetView {
  /** Column ids (as cell keys) of the sheet's columns. */
  ids: Set<string>;
  /** Column id -> its letters where it stands. */
  letters: Map<number, string>;
}

const views = new WeakMap<WorkbookSheetRecord, SheetView>();

function viewOf(sheet: WorkbookSheetRecord): SheetView {
  let view = views.get(sheet);
  if (!view) {
    const columns = columnsOf(sheet);
    view = {
      ids: new Set(columns.map((column) => String(column.id))),
      letters: new Map(columns.map((column, index) => [column.id, columnLetters(index + 1)])),
    };
    views.set(sheet, view);
  }
  return view;
}

export function rowIssues(
  store: Store,
  wb: number,
  sheet: WorkbookSheetRecord,
  row: Pick<WorkbookRowRecord, 'row_id' | 'idx'>,
): WorkbookIssue[] {
  return store.workbooks.rowIssues(wb, row.row_id).map((issue) => issueOf(issue, sheet, row.row_id, row.idx));
}

/** The cells of the sheet's columns (cells of removed columns are kept for undo, not shown). */
function shownCells(sheet: WorkbookSheetRecord, cells: RowCells): Record<string, WorkbookCell> {
  const ids = viewOf(sheet).ids;
  const shown: Record<string, WorkbookCell> = {};
  for (const id in cells) if (ids.has(id)) shown[id] = cells[id];
  return shown;
}

/** A row as answered, with what the caller read of its page at once: its issues, plan entry and outcome. */
export function rowAnswer(
  sheet: WorkbookSheetRecord,
  row: WorkbookRowRecord,
  known: { issues: WorkbookIssueRecord[]; plan?: PlanRecord; outcome?: OutcomeRecord },
): WorkbookRow {
  return {
    id: row.row_id,
    row: rowNumberOf(sheet, row.idx),
    index: row.idx,
    cells: shownCells(sheet, parseCells(row.cells)),
    issues: row.errors + row.warnings === 0 ? [] : known.issues.map((issue) => issueOf(issue, sheet, row.row_id, row.idx)),
    plan: known.plan ? planEntryOf(known.plan) : null,
    outcome: known.outcome ? outcomeOf(known.outcome) : null,
  };
}

export interface RowQuery {
  skip: number;
  limit: number;
  /** Only rows after this row index (the last one read): -1 from the first. */
  after: number;
  /** Only the last `limit` rows before this row index ("previous error"): `skip` is then ignored. */
  before?: number;
  only?: 'errors' | 'warnings';
  code?: string;
  column?: number;
  find?: CellPattern;
}

/**
 * Rows through a filter that no index serves (a code, a column, a text): a scan of the sheet, in
 * pages, that gives the event loop a turn every few milliseconds, so that a scan of a million rows
 * (or a costly pattern) delays nobody else's request by more than a slice.
 */
async function scanRows(
  store: Store,
  record: WorkbookRecord,
  sheet: WorkbookSheetRecord,
  query: RowQuery,
): Promise<{ total: number; rows: WorkbookRowRecord[] }> {
  const rows: WorkbookRowRecord[] = [];
  const slice = new TimeSlice();
  let total = 0;
  let passed = 0;
  for (let skip = 0; ; skip += 1000) {
    if (slice.due()) await slice.turn();
    const page = store.workbooks.page(record.wb, sheet.sheet_no, skip, 1000, query.only);
    for (const row of page) {
      if (slice.due()) await slice.turn();
      if (!matches(store, record.wb, sheet, row, query)) continue;
      if (query.before !== undefined) {
        // The last `limit` matches before the index: a window slid along the scan.
        if (row.idx < query.before && row.idx > query.after) {
          rows.push(row);
          if (rows.length > query.limit) rows.shift();
        }
      } else if (row.idx > query.after && passed >= query.skip && rows.length < query.limit) rows.push(row);
      if (row.idx > query.after) passed += 1;
      total += 1;
    }
    if (page.length < 1000) break;
  }
  return { total, rows };
}

function matches(store: Store, wb: number, sheet: WorkbookSheetRecord, row: WorkbookRowRecord, query: RowQuery): boolean {
  if (query.code !== undefined || query.column !== undefined) {
    if (row.errors + row.warnings === 0) return false;
    const issues = store.workbooks.rowIssues(wb, row.row_id);
    if (
      !issues.some(
        (issue) =>
          (query.code === undefined || issue.code === query.code) && (query.column === undefined || issue.column_id === query.column),
      )
    )
      return false;
  }
  if (query.find) {
    const cells = shownCells(sheet, parseCells(row.cells));
    const pattern = query.find;
    if (!Object.values(cells).some((cell) => pattern.test(cellText(cell)))) return false;
  }
  return true;
}

/** A scan that gives turns may see an edit land halfway: it reads again, up to this many times. */
const SCAN_TRIES = 3;

interface ScanResult {
  total: number;
  rows: WorkbookRowRecord[];
  sheet: WorkbookSheetRecord;
}

async function scanStable(store: Store, record: WorkbookRecord, sheetNo: number, query: RowQuery): Promise<ScanResult> {
  for (let attempt = 1; ; attempt += 1) {
    const sheet = store.workbooks.sheets(record.wb).find((candidate) => candidate.sheet_no === sheetNo);
    if (!sheet) throw new ApiError(404, 'not-found', `The workbook has no sheet ${sheetNo}.`);
    const revision = store.workbooks.getByWb(record.wb)?.revision;
    const found = await scanRows(store, record, sheet, query);
    if (store.workbooks.getByWb(record.wb)?.revision === revision) return { ...found, sheet };
    if (attempt === SCAN_TRIES)
      throw new ApiError(409, 'revision-conflict', 'The workbook kept changing while its rows were searched: search again.');
  }
}

export async function rowPage(store: Store, record: WorkbookRecord, sheetNo: number, query: RowQuery): Promise<WorkbookRowPage> {
  if (query.code !== undefined || query.column !== undefined || query.find) {
    const found = await scanStable(store, record, sheetNo, query);
    // The workbook as it stood when the scan ended: its revision is the one the rows were read at.
    return pageAnswer(store, store.workbooks.getByWb(record.wb) ?? record, found.sheet, query, found);
  }
  const sheet = store.workbooks.sheets(record.wb).find((candidate) => candidate.sheet_no === sheetNo);
  if (!sheet) throw new ApiError(404, 'not-found', `The workbook has no sheet ${sheetNo}.`);
  let found: { total: number; rows: WorkbookRowRecord[] };
  if (query.before !== undefined)
    found = {
      total: query.only === 'errors' ? sheet.rows_with_errors : query.only === 'warnings' ? sheet.rows_with_warnings : sheet.rows,
      rows: store.workbooks.pageBefore(record.wb, sheetNo, query.before, query.limit, query.only),
    };
  else if (query.only)
    found = {
      total: query.only === 'errors' ? sheet.rows_with_errors : sheet.rows_with_warnings,
      rows: store.workbooks.page(record.wb, sheetNo, query.skip, query.limit, query.only, query.after),
    };
  else found = { total: sheet.rows, rows: store.workbooks.page(record.wb, sheetNo, query.skip, query.limit, undefined, query.after) };
  return pageAnswer(store, record, sheet, query, found);
}

function pageAnswer(
  store: Store,
  record: WorkbookRecord,
  sheet: WorkbookSheetRecord,
  query: RowQuery,
  found: { total: number; rows: WorkbookRowRecord[] },
): WorkbookRowPage {
  // One query for the page's issues, one for its plan entries and one for its outcomes, rather
  // than one each a row; none of the last two for a workbook never planned or loaded.
  const ids = found.rows.map((row) => row.row_id);
  const plans = record.plan_revision !== null ? store.workbookPlan.ofRows(record.wb, ids) : undefined;
  const outcomes = record.load_id !== null ? store.workbookOutcomes.ofRows(record.wb, ids) : undefined;
  const issuesByRow = new Map<number, WorkbookIssueRecord[]>();
  const withIssues = found.rows.filter((row) => row.errors + row.warnings > 0).map((row) => row.row_id);
  for (const issue of store.workbooks.issuesOfRows(record.wb, withIssues)) {
    const list = issuesByRow.get(issue.row_id);
    if (list) list.push(issue);
    else issuesByRow.set(issue.row_id, [issue]);
  }
  return {
    revision: record.revision,
    total: found.total,
    skip: query.skip,
    next_after:
      query.before === undefined && found.rows.length === query.limit && found.rows.length > 0
        ? found.rows[found.rows.length - 1].idx
        : null,
    rows: found.rows.map((row) =>
      rowAnswer(sheet, row, {
        issues: issuesByRow.get(row.row_id) ?? [],
        plan: plans?.get(row.row_id),
        outcome: outcomes?.get(row.row_id),
      }),
    ),
  };
}

export function issueList(store: Store, record: WorkbookRecord, skip: number, limit: number): WorkbookIssueList {
  const sheets = store.workbooks.sheets(record.wb);
  const bySheet = new Map(sheets.map((sheet) => [sheet.sheet_no, sheet]));
  const own = sheets.flatMap((sheet) => sheetIssuesOf(sheet).map((issue) => issueOf(issue, sheet, 0, null)));
  const counts = countsOf(store, record.wb, sheets);
  const rowIssuesPage = store.workbooks
    .issuesPage(record.wb, Math.max(0, skip - own.length), Math.max(0, limit - Math.max(0, own.length - skip)))
    .map((issue) => issueOf(issue, bySheet.get(issue.sheet_no) as WorkbookSheetRecord, issue.row_id, issue.idx));
  const byColumn = store.workbooks.issuesByColumn(record.wb).map((entry) => {
    const sheet = bySheet.get(entry.sheet_no) as WorkbookSheetRecord;
    const place = entry.column_id === null ? -1 : columnsOf(sheet).findIndex((column) => column.id === entry.column_id);
    return {
      sheet: entry.sheet_no,
      column_id: entry.column_id,
      column: place < 0 ? '' : columnLetters(place + 1),
      errors: entry.errors,
      warnings: entry.warnings,
    };
  });
  const byCode = store.workbooks.issuesByCode(record.wb);
  for (const issue of own) {
    const entry = byCode.find((candidate) => candidate.code === issue.code && candidate.severity === issue.severity);
    if (entry) entry.count += 1;
    else byCode.push({ code: issue.code, severity: issue.severity, count: 1 });
  }
  return {
    revision: record.revision,
    total: counts.errors + counts.warnings,
    issues: [...own.slice(skip, skip + limit), ...rowIssuesPage].slice(0, limit),
    by_code: byCode,
    by_column: byColumn,
    fixable: store.workbooks
      .fixableCounts(record.wb)
      .map((entry) => ({ sheet: entry.sheet_no, code: entry.code, column_id: entry.column_id, count: entry.count })),
  };
}
