import type { Db } from './db';

/** A staged workbook's own row (migration 0013). */
export interface WorkbookRecord {
  wb: number;
  id: string;
  name: string;
  owner: string;
  owner_pkid: string;
  owner_path: string;
  hierarchy_pkid: string;
  source: string;
  state: string;
  revision: number;
  head: number;
  validated_revision: number | null;
  problem: string | null;
  next_row: number;
  /** The revision the last plan was made on, and its totals (JSON PlanTotals). */
  plan_revision: number | null;
  plan_totals: string | null;
  /** The parent transaction of the last load, and the rows with an action at its start. */
  load_id: string | null;
  load_total: number;
  /** 1 when the key index is the keys of every row's stored outcome (migration 0014). */
  keys_current: number;
  /** The remote profile it targets (checked against its mirror, migration 0016); null: the Local store. */
  profile_pkid: string | null;
  created_at: string;
  updated_at: string;
}

/** A workbook's share of its owner's quota. */
export interface WorkbookUsage {
  id: string;
  name: string;
  state: string;
  created_at: string;
  rows: number;
}

export interface WorkbookSheetRecord {
  wb: number;
  sheet_no: number;
  name: string;
  skipped: number;
  directive: string | null;
  model_type: string | null;
  /** JSON: the columns in their order (workbooks/workbook-columns.ts). */
  columns: string;
  next_column: number;
  /** Data rows (blank ones included), kept as rows are inserted and deleted. */
  rows: number;
  /** Issues of its rows and rows with issues, kept as validation writes its outcomes: a count is never a scan. */
  errors: number;
  warnings: number;
  rows_with_errors: number;
  rows_with_warnings: number;
  /** JSON: issues of the whole sheet (headers), from its last validation. */
  sheet_issues: string;
  /** JSON: a `#` sheet's rows, kept to be saved back. */
  raw: string | null;
  /** JSON `[idx, skip][]`: the file's empty rows between stored rows (workbooks/row-gaps.ts). */
  row_gaps: string;
}

export interface WorkbookRowRecord {
  row_id: number;
  sheet_no: number;
  idx: number;
  /** JSON: column id -> cell. */
  cells: string;
  errors: number;
  warnings: number;
}

/** What validation learnt of a row: its counts, and the overlay keys it read and the effects it had (JSON). */
export interface RowValidationRecord {
  row_id: number;
  sheet_no: number;
  errors: number;
  warnings: number;
  reads: string;
  effects: string;
}

export interface WorkbookIssueRecord {
  row_id: number;
  seq: number;
  sheet_no: number;
  column_id: number | null;
  field: string;
  severity: 'error' | 'warning';
  code: string;
  message: string;
  suggestion: string | null;
}

export interface RevisionRecord {
  seq: number;
  op: string;
  summary: string;
  username: string;
  at: string;
  forward: string;
  backward: string;
}

/** A row's place and its validation record, for replaying its effects in order. */
export interface RowEffectsRecord {
  row_id: number;
  sheet_no: number;
  idx: number;
  effects: string;
}

export const KEY_READ = 1;
export const KEY_WRITE = 2;

/**
 * The staged workbooks' tables. Every statement is prepared here once; callers never write SQL.
 * Rows are ordered by (sheet_no, idx), dense from 0 in each sheet: a page is an index seek at
 * `idx >= skip`, as fast at row 900,000 as at row 0.
 */
export class WorkbooksRepo {
  private readonly s;

  constructor(private readonly db: Db) {
    const p = <P extends unknown[], R = unknown>(text: string) => db.prepare<P, R>(text);
    this.s = {
      counter: p<[string], { value: number }>(
        'INSERT INTO workstation_counters (name, value) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET value = value + 1 RETURNING value',
      ),
      insert: p<[string, string, string, string, string, string, string, string, number, string, string, string | null], { wb: number }>(
        `INSERT INTO workbooks (id, name, owner, owner_pkid, owner_path, hierarchy_pkid, source, state, revision, created_at, updated_at, profile_pkid)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING wb`,
      ),
      byId: p<[string], WorkbookRecord>('SELECT * FROM workbooks WHERE id = ?'),
      byWb: p<[number], WorkbookRecord>('SELECT * FROM workbooks WHERE wb = ?'),
      // Shelves (workbooks/workbook-remap.ts) are the rows a change of mapping took back: never listed.
      all: p<[], WorkbookRecord>(`SELECT * FROM workbooks WHERE id NOT LIKE 'shelf:%' ORDER BY created_at DESC, wb DESC`),
      setId: p<[string, number]>('UPDATE workbooks SET id = ? WHERE wb = ?'),
      remapsAfter: p<[number, number], RevisionRecord>(`SELECT * FROM workbook_revisions WHERE wb = ? AND seq > ? AND op = 'remap'`),
      // A workbook being staged has no sheet rows yet (each sheet's count comes after its rows): its row ids taken (from 1) count.
      // Shelves are not the user's to delete: bounded by KEPT_SHELVES per workbook (workbook-remap.ts), they count to no quota.
      usage: p<[string], WorkbookUsage>(
        `SELECT w.id, w.name, w.state, w.created_at,
           MAX(COALESCE((SELECT SUM(s.rows) FROM workbook_sheets s WHERE s.wb = w.wb), 0), CASE WHEN w.state = 'staging' THEN w.next_row - 1 ELSE 0 END) AS rows
         FROM workbooks w WHERE w.owner_pkid = ? AND w.id NOT LIKE 'shelf:%' ORDER BY rows DESC, w.created_at`,
      ),
      setState: p<[string, string | null, string, number]>('UPDATE workbooks SET state = ?, problem = ?, updated_at = ? WHERE wb = ?'),
      setRevision: p<[number, number, string, number]>('UPDATE workbooks SET revision = ?, head = ?, updated_at = ? WHERE wb = ?'),
      setValidated: p<[number, number]>('UPDATE workbooks SET validated_revision = ? WHERE wb = ?'),
      setKeysCurrent: p<[number, number]>('UPDATE workbooks SET keys_current = ? WHERE wb = ?'),
      setPlanned: p<[number | null, string | null, number]>('UPDATE workbooks SET plan_revision = ?, plan_totals = ? WHERE wb = ?'),
      setLoad: p<[string, number, number]>('UPDATE workbooks SET load_id = ?, load_total = ? WHERE wb = ?'),
      inState: p<[string], WorkbookRecord>('SELECT * FROM workbooks WHERE state = ?'),
      takeRowIds: p<[number, number], { next: number }>(
        'UPDATE workbooks SET next_row = next_row + ? WHERE wb = ? RETURNING next_row AS next',
      ),
      insertSheet: p<[number, number, string, number, string | null, string | null, string, number, number, string | null, string]>(
        `INSERT INTO workbook_sheets (wb, sheet_no, name, skipped, directive, model_type, columns, next_column, rows, raw, row_gaps)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      setRowGaps: p<[string, number, number]>('UPDATE workbook_sheets SET row_gaps = ? WHERE wb = ? AND sheet_no = ?'),
      addSheetRows: p<[number, number, number]>('UPDATE workbook_sheets SET rows = rows + ? WHERE wb = ? AND sheet_no = ?'),
      renumber: p<[number, number, number, number]>(
        `UPDATE workbook_rows SET idx = r.place FROM
           (SELECT row_id, ROW_NUMBER() OVER (ORDER BY idx) - 1 AS place FROM workbook_rows WHERE wb = ? AND sheet_no = ?) AS r
         WHERE workbook_rows.wb = ? AND workbook_rows.row_id = r.row_id AND workbook_rows.idx <> r.place AND workbook_rows.sheet_no = ?`,
      ),
      addCounts: p<[number, number, number, number, number, number]>(
        `UPDATE workbook_sheets SET errors = errors + ?, warnings = warnings + ?, rows_with_errors = rows_with_errors + ?,
           rows_with_warnings = rows_with_warnings + ? WHERE wb = ? AND sheet_no = ?`,
      ),
      sheets: p<[number], WorkbookSheetRecord>('SELECT * FROM workbook_sheets WHERE wb = ? ORDER BY sheet_no'),
      updateSheet: p<[string | null, string, number, number, number]>(
        'UPDATE workbook_sheets SET directive = ?, columns = ?, next_column = ? WHERE wb = ? AND sheet_no = ?',
      ),
      setSheetIssues: p<[string, number, number]>('UPDATE workbook_sheets SET sheet_issues = ? WHERE wb = ? AND sheet_no = ?'),
      // A duplicate: the sheets and rows as they stand (their counts and results come from validating the copy).
      copySheets: p<[number, number]>(
        `INSERT INTO workbook_sheets (wb, sheet_no, name, skipped, directive, model_type, columns, next_column, rows, raw, row_gaps)
         SELECT ?, sheet_no, name, skipped, directive, model_type, columns, next_column, rows, raw, row_gaps FROM workbook_sheets WHERE wb = ?`,
      ),
      copyRows: p<[number, number, number, number]>(
        `INSERT INTO workbook_rows (wb, row_id, sheet_no, idx, cells)
         SELECT ?, row_id, sheet_no, idx, cells FROM workbook_rows WHERE wb = ? AND row_id >= ? AND row_id < ?`,
      ),
      copyNextRow: p<[number, number]>('UPDATE workbooks SET next_row = (SELECT next_row FROM workbooks WHERE wb = ?) WHERE wb = ?'),
      insertRow: p<[number, number, number, number, string]>(
        'INSERT INTO workbook_rows (wb, row_id, sheet_no, idx, cells) VALUES (?, ?, ?, ?, ?)',
      ),
      row: p<[number, number], WorkbookRowRecord>(
        'SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows WHERE wb = ? AND row_id = ?',
      ),
      rowAt: p<[number, number, number], WorkbookRowRecord>(
        'SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows WHERE wb = ? AND sheet_no = ? AND idx = ?',
      ),
      page: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND idx >= ? ORDER BY idx LIMIT ?`,
      ),
      pageWithResults: p<[number, number, number, number], WorkbookRowRecord & { reads: string; effects: string }>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings, reads, effects FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND idx >= ? ORDER BY idx LIMIT ?`,
      ),
      // A filtered page in two steps: its first row's index counted off in the index alone
      // (covering: it holds the count, migration 0014), then the rows from there. One query
      // with OFFSET read every skipped row from the table.
      firstError: p<[number, number, number, number], { idx: number }>(
        `SELECT idx FROM workbook_rows WHERE wb = ? AND sheet_no = ? AND errors > 0 AND idx > ? ORDER BY idx LIMIT 1 OFFSET ?`,
      ),
      firstWarning: p<[number, number, number, number], { idx: number }>(
        `SELECT idx FROM workbook_rows WHERE wb = ? AND sheet_no = ? AND warnings > 0 AND idx > ? ORDER BY idx LIMIT 1 OFFSET ?`,
      ),
      pageErrors: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND errors > 0 AND idx >= ? ORDER BY idx LIMIT ?`,
      ),
      pageWarnings: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND warnings > 0 AND idx >= ? ORDER BY idx LIMIT ?`,
      ),
      // Nearest first, for "previous": the rows before an index, read backwards on the same index.
      pageBefore: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND idx < ? ORDER BY idx DESC LIMIT ?`,
      ),
      pageErrorsBefore: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND errors > 0 AND idx < ? ORDER BY idx DESC LIMIT ?`,
      ),
      pageWarningsBefore: p<[number, number, number, number], WorkbookRowRecord>(
        `SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows
         WHERE wb = ? AND sheet_no = ? AND warnings > 0 AND idx < ? ORDER BY idx DESC LIMIT ?`,
      ),
      countRows: p<[number, number], { n: number }>('SELECT COUNT(*) AS n FROM workbook_rows WHERE wb = ? AND sheet_no = ?'),
      sheetRows: p<[number, number], WorkbookRowRecord>(
        'SELECT row_id, sheet_no, idx, cells, errors, warnings FROM workbook_rows WHERE wb = ? AND sheet_no = ? ORDER BY idx',
      ),
      setCells: p<[string, number, number]>('UPDATE workbook_rows SET cells = ? WHERE wb = ? AND row_id = ?'),
      shift: p<[number, number, number, number]>('UPDATE workbook_rows SET idx = idx + ? WHERE wb = ? AND sheet_no = ? AND idx >= ?'),
      shiftBetween: p<[number, number, number, number, number]>(
        'UPDATE workbook_rows SET idx = idx + ? WHERE wb = ? AND sheet_no = ? AND idx > ? AND idx < ?',
      ),
      addPending: p<[number, number, string]>('INSERT INTO workbook_pending (wb, part, undo) VALUES (?, ?, ?)'),
      pendingOf: p<[number], { part: number; undo: string }>('SELECT part, undo FROM workbook_pending WHERE wb = ? ORDER BY part DESC'),
      pendingWbs: p<[], { wb: number }>('SELECT DISTINCT wb FROM workbook_pending'),
      clearPending: p<[number]>('DELETE FROM workbook_pending WHERE wb = ?'),
      dropPending: p<[number, number]>('DELETE FROM workbook_pending WHERE wb = ? AND part = ?'),
      deleteRow: p<[number, number]>('DELETE FROM workbook_rows WHERE wb = ? AND row_id = ?'),
      setRowResult: p<[number, number, string, string, number, number]>(
        'UPDATE workbook_rows SET errors = ?, warnings = ?, reads = ?, effects = ? WHERE wb = ? AND row_id = ?',
      ),
      rowResult: p<[number, number], RowValidationRecord>(
        'SELECT row_id, sheet_no, errors, warnings, reads, effects FROM workbook_rows WHERE wb = ? AND row_id = ?',
      ),
      rowEffects: p<[number, number], RowEffectsRecord>(
        'SELECT row_id, sheet_no, idx, effects FROM workbook_rows WHERE wb = ? AND row_id = ?',
      ),
      deleteIssues: p<[number, number]>('DELETE FROM workbook_issues WHERE wb = ? AND row_id = ?'),
      insertIssue: p<[number, number, number, number, number | null, string, string, string, string, string | null]>(
        `INSERT INTO workbook_issues (wb, row_id, seq, sheet_no, column_id, field, severity, code, message, suggestion)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      rowIssues: p<[number, number], WorkbookIssueRecord>('SELECT * FROM workbook_issues WHERE wb = ? AND row_id = ? ORDER BY seq'),
      issuesOfRows: p<[number, string], WorkbookIssueRecord>(
        'SELECT * FROM workbook_issues WHERE wb = ? AND row_id IN (SELECT value FROM json_each(?)) ORDER BY row_id, seq',
      ),
      issuesPage: p<[number, number, number], WorkbookIssueRecord & { idx: number }>(
        `SELECT i.*, r.idx FROM workbook_issues i JOIN workbook_rows r ON r.wb = i.wb AND r.row_id = i.row_id
         WHERE i.wb = ? ORDER BY i.sheet_no, r.idx, i.seq LIMIT ? OFFSET ?`,
      ),
      byCode: p<[number], { code: string; severity: 'error' | 'warning'; count: number }>(
        'SELECT code, severity, COUNT(*) AS count FROM workbook_issues WHERE wb = ? GROUP BY code, severity ORDER BY count DESC, code',
      ),
      fixable: p<[number], { sheet_no: number; code: string; column_id: number | null; count: number }>(
        `SELECT sheet_no, code, column_id, COUNT(*) AS count FROM workbook_issues
         WHERE wb = ? AND suggestion IS NOT NULL GROUP BY sheet_no, code, column_id`,
      ),
      suggestionsOf: p<[number, number, string, number | null], { row_id: number; suggestion: string }>(
        `SELECT row_id, suggestion FROM workbook_issues
         WHERE wb = ? AND sheet_no = ? AND code = ? AND column_id IS ? AND suggestion IS NOT NULL ORDER BY row_id, seq`,
      ),
      byColumn: p<[number], { sheet_no: number; column_id: number | null; errors: number; warnings: number }>(
        `SELECT sheet_no, column_id, SUM(severity = 'error') AS errors, SUM(severity = 'warning') AS warnings
         FROM workbook_issues WHERE wb = ? GROUP BY sheet_no, column_id ORDER BY sheet_no, column_id`,
      ),
      insertKey: p<[number, number, number, number]>('INSERT OR IGNORE INTO workbook_row_keys (wb, key, kind, row_id) VALUES (?, ?, ?, ?)'),
      deleteKey: p<[number, number, number, number]>('DELETE FROM workbook_row_keys WHERE wb = ? AND key = ? AND kind = ? AND row_id = ?'),
      keysFrom: p<[number, number, number, number, number], [number, number, number]>(
        `SELECT key, kind, row_id FROM workbook_row_keys WHERE wb = ? AND (key, kind, row_id) > (?, ?, ?)
         ORDER BY key, kind, row_id LIMIT ?`,
      ).raw(),
      keysFirst: p<[number, number], [number, number, number]>(
        'SELECT key, kind, row_id FROM workbook_row_keys WHERE wb = ? ORDER BY key, kind, row_id LIMIT ?',
      ).raw(),
      rowsWithKey: p<[number, number, number], { row_id: number }>(
        'SELECT row_id FROM workbook_row_keys WHERE wb = ? AND key = ? AND kind = ?',
      ),
      insertRevision: p<[number, number, string, string, string, string, string, string]>(
        'INSERT INTO workbook_revisions (wb, seq, op, summary, username, at, forward, backward) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      revision: p<[number, number], RevisionRecord>('SELECT * FROM workbook_revisions WHERE wb = ? AND seq = ?'),
      revisions: p<[number], Omit<RevisionRecord, 'forward' | 'backward'>>(
        'SELECT seq, op, summary, username, at FROM workbook_revisions WHERE wb = ? ORDER BY seq',
      ),
      dropRevisionsAfter: p<[number, number]>('DELETE FROM workbook_revisions WHERE wb = ? AND seq > ?'),
      removeMapping: p<[number]>('DELETE FROM workbook_mappings WHERE wb = ?'),
      remove: [
        'workbook_pending',
        'workbook_plan',
        'workbook_outcomes',
        'workbook_revisions',
        'workbook_row_keys',
        'workbook_issues',
        'workbook_rows',
        'workbook_sheets',
        'workbooks',
      ].map((table) => p<[number]>(`DELETE FROM ${table} WHERE wb = ?`)),
    };
  }

  /** A number never handed out before, across workbooks: a revision of one workbook is never valid for another. */
  nextRevision(): number {
    return (this.s.counter.get('workbook-revision') as { value: number }).value;
  }

  create(
    row: Omit<
      WorkbookRecord,
      | 'wb'
      | 'head'
      | 'validated_revision'
      | 'problem'
      | 'next_row'
      | 'plan_revision'
      | 'plan_totals'
      | 'load_id'
      | 'load_total'
      | 'keys_current'
      | 'profile_pkid'
    > & { profile_pkid?: string | null },
  ): number {
    const s = this.s.insert;
    const inserted = s.get(
      row.id,
      row.name,
      row.owner,
      row.owner_pkid,
      row.owner_path,
      row.hierarchy_pkid,
      row.source,
      row.state,
      row.revision,
      row.created_at,
      row.updated_at,
      row.profile_pkid ?? null,
    );
    return (inserted as { wb: number }).wb;
  }

  get(id: string): WorkbookRecord | undefined {
    return this.s.byId.get(id);
  }

  getByWb(wb: number): WorkbookRecord | undefined {
    return this.s.byWb.get(wb);
  }

  list(): WorkbookRecord[] {
    return this.s.all.all();
  }

  /** One user's workbooks with the rows each stores, the biggest first (workbooks/workbook-quota.ts). */
  usageOf(ownerPkid: string): WorkbookUsage[] {
    return this.s.usage.all(ownerPkid);
  }

  setState(wb: number, state: string, problem: string | null, at: string): void {
    this.s.setState.run(state, problem, at, wb);
  }

  setRevision(wb: number, revision: number, head: number, at: string): void {
    this.s.setRevision.run(revision, head, at, wb);
  }

  setValidated(wb: number, revision: number): void {
    this.s.setValidated.run(revision, wb);
  }

  /** Whether the key index holds exactly the keys of every row's stored outcome. */
  setKeysCurrent(wb: number, current: boolean): void {
    this.s.setKeysCurrent.run(current ? 1 : 0, wb);
  }

  setPlanned(wb: number, revision: number | null, totals: string | null): void {
    this.s.setPlanned.run(revision, totals, wb);
  }

  setLoad(wb: number, loadId: string, total: number): void {
    this.s.setLoad.run(loadId, total, wb);
  }

  withState(state: string): WorkbookRecord[] {
    return this.s.inState.all(state);
  }

  /** Reserves `count` new row ids; answers the first. */
  takeRowIds(wb: number, count: number): number {
    return (this.s.takeRowIds.get(count, wb) as { next: number }).next - count;
  }

  addSheet(sheet: Omit<WorkbookSheetRecord, 'sheet_issues' | 'errors' | 'warnings' | 'rows_with_errors' | 'rows_with_warnings'>): void {
    this.s.insertSheet.run(
      sheet.wb,
      sheet.sheet_no,
      sheet.name,
      sheet.skipped,
      sheet.directive,
      sheet.model_type,
      sheet.columns,
      sheet.next_column,
      sheet.rows,
      sheet.raw,
      sheet.row_gaps,
    );
  }

  setRowGaps(wb: number, sheetNo: number, gaps: string): void {
    this.s.setRowGaps.run(gaps, wb, sheetNo);
  }

  addSheetRows(wb: number, sheetNo: number, delta: number): void {
    this.s.addSheetRows.run(delta, wb, sheetNo);
  }

  /** Makes a sheet's places dense again (0, 1, 2...) after rows were deleted. */
  renumber(wb: number, sheetNo: number): void {
    this.s.renumber.run(wb, sheetNo, wb, sheetNo);
  }

  /** Moves a sheet's counts of issues and of rows with issues by what a row's validation changed. */
  addCounts(wb: number, sheetNo: number, errors: number, warnings: number, rowsWithErrors: number, rowsWithWarnings: number): void {
    if (errors === 0 && warnings === 0 && rowsWithErrors === 0 && rowsWithWarnings === 0) return;
    this.s.addCounts.run(errors, warnings, rowsWithErrors, rowsWithWarnings, wb, sheetNo);
  }

  sheets(wb: number): WorkbookSheetRecord[] {
    return this.s.sheets.all(wb);
  }

  updateSheet(wb: number, sheetNo: number, directive: string | null, columns: string, nextColumn: number): void {
    this.s.updateSheet.run(directive, columns, nextColumn, wb, sheetNo);
  }

  setSheetIssues(wb: number, sheetNo: number, issues: string): void {
    this.s.setSheetIssues.run(issues, wb, sheetNo);
  }

  addRow(wb: number, rowId: number, sheetNo: number, idx: number, cells: string): void {
    this.s.insertRow.run(wb, rowId, sheetNo, idx, cells);
  }

  row(wb: number, rowId: number): WorkbookRowRecord | undefined {
    return this.s.row.get(wb, rowId);
  }

  rowAt(wb: number, sheetNo: number, idx: number): WorkbookRowRecord | undefined {
    return this.s.rowAt.get(wb, sheetNo, idx);
  }

  /**
   * Rows of a sheet in order, `skip` of them passed over, after the row at index `after` (-1: from
   * the first). Filtered to errors or warnings, `skip` walks the partial index (about 0.3 µs a
   * row passed over); `after` is a seek at any depth, for reading on from the last row read.
   */
  page(wb: number, sheetNo: number, skip: number, limit: number, only?: 'errors' | 'warnings', after = -1): WorkbookRowRecord[] {
    if (only === undefined) return this.s.page.all(wb, sheetNo, after + 1 + skip, limit);
    const first = (only === 'errors' ? this.s.firstError : this.s.firstWarning).get(wb, sheetNo, after, skip);
    if (!first) return [];
    return (only === 'errors' ? this.s.pageErrors : this.s.pageWarnings).all(wb, sheetNo, first.idx, limit);
  }

  /** A page of rows with what their last validation stored (reads and effects), for a full validation to compare with. */
  pageWithResults(wb: number, sheetNo: number, skip: number, limit: number): (WorkbookRowRecord & { reads: string; effects: string })[] {
    return this.s.pageWithResults.all(wb, sheetNo, skip, limit);
  }

  /** Up to `limit` rows before index `before`, in sheet order (the nearest last). */
  pageBefore(wb: number, sheetNo: number, before: number, limit: number, only?: 'errors' | 'warnings'): WorkbookRowRecord[] {
    const statement = only === 'errors' ? this.s.pageErrorsBefore : only === 'warnings' ? this.s.pageWarningsBefore : this.s.pageBefore;
    return statement.all(wb, sheetNo, before, limit).reverse();
  }

  countRows(wb: number, sheetNo: number): number {
    return (this.s.countRows.get(wb, sheetNo) as { n: number }).n;
  }

  /** Every row of a sheet in order, one at a time (a cursor: the caller must not write on this connection while iterating). */
  sheetRows(wb: number, sheetNo: number): IterableIterator<WorkbookRowRecord> {
    return this.s.sheetRows.iterate(wb, sheetNo);
  }

  setCells(wb: number, rowId: number, cells: string): void {
    this.s.setCells.run(cells, wb, rowId);
  }

  /** Moves the rows at `fromIdx` and after by `delta` places. */
  shiftRows(wb: number, sheetNo: number, fromIdx: number, delta: number): void {
    this.s.shift.run(delta, wb, sheetNo, fromIdx);
  }

  /** Moves the rows strictly between two places by `delta`: closing the gaps a delete left, a run at a time. */
  shiftBetween(wb: number, sheetNo: number, afterIdx: number, beforeIdx: number, delta: number): void {
    this.s.shiftBetween.run(delta, wb, sheetNo, afterIdx, beforeIdx);
  }

  /** What undoes one committed slice of a big edit that has not ended (migration 0021). */
  addPending(wb: number, part: number, undo: string): void {
    this.s.addPending.run(wb, part, undo);
  }

  /** The pending slices' undo ops, the last slice first. */
  pendingOf(wb: number): { part: number; undo: string }[] {
    return this.s.pendingOf.all(wb);
  }

  pendingWorkbooks(): number[] {
    return this.s.pendingWbs.all().map((row) => row.wb);
  }

  clearPending(wb: number): void {
    this.s.clearPending.run(wb);
  }

  dropPending(wb: number, part: number): void {
    this.s.dropPending.run(wb, part);
  }

  deleteRow(wb: number, rowId: number): void {
    this.s.deleteRow.run(wb, rowId);
    this.s.deleteIssues.run(wb, rowId);
  }

  setRowResult(wb: number, result: RowValidationRecord): void {
    this.s.setRowResult.run(result.errors, result.warnings, result.reads, result.effects, wb, result.row_id);
  }

  rowResult(wb: number, rowId: number): RowValidationRecord | undefined {
    return this.s.rowResult.get(wb, rowId);
  }

  rowEffects(wb: number, rowId: number): RowEffectsRecord | undefined {
    return this.s.rowEffects.get(wb, rowId);
  }

  replaceIssues(wb: number, rowId: number, issues: Omit<WorkbookIssueRecord, 'row_id' | 'seq'>[]): void {
    this.s.deleteIssues.run(wb, rowId);
    issues.forEach((issue, seq) =>
      this.s.insertIssue.run(
        wb,
        rowId,
        seq,
        issue.sheet_no,
        issue.column_id,
        issue.field,
        issue.severity,
        issue.code,
        issue.message,
        issue.suggestion,
      ),
    );
  }

  /** The issues of several rows at once (a page's), by row id and then in order. */
  issuesOfRows(wb: number, rowIds: readonly number[]): WorkbookIssueRecord[] {
    return rowIds.length === 0 ? [] : this.s.issuesOfRows.all(wb, JSON.stringify(rowIds));
  }

  rowIssues(wb: number, rowId: number): WorkbookIssueRecord[] {
    return this.s.rowIssues.all(wb, rowId);
  }

  issuesPage(wb: number, skip: number, limit: number): (WorkbookIssueRecord & { idx: number })[] {
    return this.s.issuesPage.all(wb, limit, skip);
  }

  issuesByCode(wb: number): { code: string; severity: 'error' | 'warning'; count: number }[] {
    return this.s.byCode.all(wb);
  }

  /** Issues that carry a suggested fix, counted per sheet, code and column ("apply to all n like it"). */
  fixableCounts(wb: number): { sheet_no: number; code: string; column_id: number | null; count: number }[] {
    return this.s.fixable.all(wb);
  }

  /** The suggestions (JSON) of every issue of a code in a column of a sheet, in row order. */
  suggestionsOf(wb: number, sheetNo: number, code: string, columnId: number | null): { row_id: number; suggestion: string }[] {
    return this.s.suggestionsOf.all(wb, sheetNo, code, columnId);
  }

  issuesByColumn(wb: number): { sheet_no: number; column_id: number | null; errors: number; warnings: number }[] {
    return this.s.byColumn.all(wb);
  }

  addKey(wb: number, key: number, kind: number, rowId: number): void {
    this.s.insertKey.run(wb, key, kind, rowId);
  }

  dropKey(wb: number, key: number, kind: number, rowId: number): void {
    this.s.deleteKey.run(wb, key, kind, rowId);
  }

  /** The index's entries of a workbook in key order, after `after` (from the first when undefined): [key, kind, row id]. */
  keySlice(wb: number, after: [number, number, number] | undefined, limit: number): [number, number, number][] {
    if (!after) return this.s.keysFirst.all(wb, limit);
    return this.s.keysFrom.all(wb, after[0], after[1], after[2], limit);
  }

  rowsWithKey(wb: number, key: number, kind: number): number[] {
    return this.s.rowsWithKey.all(wb, key, kind).map((entry) => entry.row_id);
  }

  addRevision(wb: number, revision: RevisionRecord): void {
    this.s.insertRevision.run(
      wb,
      revision.seq,
      revision.op,
      revision.summary,
      revision.username,
      revision.at,
      revision.forward,
      revision.backward,
    );
  }

  revision(wb: number, seq: number): RevisionRecord | undefined {
    return this.s.revision.get(wb, seq);
  }

  /** The history without its (possibly large) edit bodies. */
  history(wb: number): Omit<RevisionRecord, 'forward' | 'backward'>[] {
    return this.s.revisions.all(wb);
  }

  /** A record's public id changed (workbooks/workbook-remap.ts swaps two). */
  setId(wb: number, id: string): void {
    this.s.setId.run(id, wb);
  }

  /** The changes of mapping in a workbook's history after `seq`. */
  remapsAfter(wb: number, seq: number): RevisionRecord[] {
    return this.s.remapsAfter.all(wb, seq);
  }

  /** A new edit after undos: the undone edits can no longer be redone. */
  dropRevisionsAfter(wb: number, seq: number): void {
    this.s.dropRevisionsAfter.run(wb, seq);
  }

  remove(wb: number): void {
    this.db.transaction(() => {
      for (const statement of this.s.remove) statement.run(wb);
      // Not in `clear`: a workbook staged again through its mapping keeps it.
      this.s.removeMapping.run(wb);
    })();
  }

  /** Workbook `from`'s sheets into `to` (a new, empty workbook), and its next row id: its rows follow (copyRows). */
  copySheets(from: number, to: number): void {
    this.db.transaction(() => {
      this.s.copySheets.run(to, from);
      this.s.copyNextRow.run(from, to);
    })();
  }

  /** Workbook `from`'s rows with ids in [start, end) into `to`, ids kept; answers how many. */
  copyRows(from: number, to: number, start: number, end: number): number {
    return this.s.copyRows.run(to, from, start, end).changes;
  }

  /** Everything but the workbook's own row: what a failed staging leaves. */
  clear(wb: number): void {
    this.db.transaction(() => {
      for (const statement of this.s.remove.slice(0, -1)) statement.run(wb);
    })();
  }
}
