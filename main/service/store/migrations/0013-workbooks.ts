/**
 * Staged workbooks (architecture.md, Staged workbooks): a workbook the workstation holds, its
 * sheets (columns by stable id), rows (cells as JSON by column id, in a dense order `idx` so a
 * page at any depth is an index seek), the issues of its cells, what each row reads from and
 * adds to the rows after it (so an edit revalidates only the rows it can change), and every
 * edit as a revision with its inverse (undo and redo across restarts), the last plan, and each
 * row's load outcome.
 * Child tables key on the integer `wb`, not the public id, to keep their indexes small.
 */
export const sql = `
CREATE TABLE workbooks (
  wb INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  owner TEXT NOT NULL,
  owner_pkid TEXT NOT NULL,
  owner_path TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL,
  source TEXT NOT NULL,
  state TEXT NOT NULL,
  revision INTEGER NOT NULL,
  head INTEGER NOT NULL DEFAULT 0,
  validated_revision INTEGER,
  problem TEXT,
  next_row INTEGER NOT NULL DEFAULT 1,
  plan_revision INTEGER,
  plan_totals TEXT,
  load_id TEXT,
  load_total INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE workbook_sheets (
  wb INTEGER NOT NULL,
  sheet_no INTEGER NOT NULL,
  name TEXT NOT NULL,
  skipped INTEGER NOT NULL,
  directive TEXT,
  model_type TEXT,
  columns TEXT NOT NULL,
  next_column INTEGER NOT NULL,
  rows INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  warnings INTEGER NOT NULL DEFAULT 0,
  rows_with_errors INTEGER NOT NULL DEFAULT 0,
  rows_with_warnings INTEGER NOT NULL DEFAULT 0,
  sheet_issues TEXT NOT NULL DEFAULT '[]',
  raw TEXT,
  PRIMARY KEY (wb, sheet_no)
) WITHOUT ROWID;

CREATE TABLE workbook_rows (
  wb INTEGER NOT NULL,
  row_id INTEGER NOT NULL,
  sheet_no INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  cells TEXT NOT NULL,
  errors INTEGER NOT NULL DEFAULT 0,
  warnings INTEGER NOT NULL DEFAULT 0,
  reads TEXT NOT NULL DEFAULT '[]',
  effects TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (wb, row_id)
) WITHOUT ROWID;
CREATE INDEX workbook_rows_place ON workbook_rows (wb, sheet_no, idx);
CREATE INDEX workbook_rows_errors ON workbook_rows (wb, sheet_no, idx) WHERE errors > 0;
CREATE INDEX workbook_rows_warnings ON workbook_rows (wb, sheet_no, idx) WHERE warnings > 0;

CREATE TABLE workbook_issues (
  wb INTEGER NOT NULL,
  row_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  sheet_no INTEGER NOT NULL,
  column_id INTEGER,
  field TEXT NOT NULL,
  severity TEXT NOT NULL,
  code TEXT NOT NULL,
  message TEXT NOT NULL,
  suggestion TEXT,
  PRIMARY KEY (wb, row_id, seq)
) WITHOUT ROWID;
CREATE INDEX workbook_issues_code ON workbook_issues (wb, code, sheet_no);

CREATE TABLE workbook_row_keys (
  wb INTEGER NOT NULL,
  key INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  row_id INTEGER NOT NULL,
  PRIMARY KEY (wb, key, kind, row_id)
) WITHOUT ROWID;

CREATE TABLE workbook_revisions (
  wb INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  op TEXT NOT NULL,
  summary TEXT NOT NULL,
  username TEXT NOT NULL,
  at TEXT NOT NULL,
  forward TEXT NOT NULL,
  backward TEXT NOT NULL,
  PRIMARY KEY (wb, seq)
) WITHOUT ROWID;

-- The last plan: per row, what it predicts and the version of the target it was made against.
CREATE TABLE workbook_plan (
  wb INTEGER NOT NULL,
  row_id INTEGER NOT NULL,
  action TEXT NOT NULL,
  target_pkid TEXT,
  version TEXT,
  changes TEXT NOT NULL DEFAULT '[]',
  message TEXT,
  PRIMARY KEY (wb, row_id)
) WITHOUT ROWID;
CREATE INDEX workbook_plan_action ON workbook_plan (wb, action);

-- What loading each row did; written in the commit of the row's own batch (never lost, never twice).
-- Kept when its row is deleted: an undo brings the row back with its outcome.
CREATE TABLE workbook_outcomes (
  wb INTEGER NOT NULL,
  row_id INTEGER NOT NULL,
  status TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  message TEXT NOT NULL,
  pkid TEXT,
  PRIMARY KEY (wb, row_id)
) WITHOUT ROWID;

CREATE TABLE workstation_counters (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;
