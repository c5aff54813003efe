/**
 * Bulk loads as the workstation runs them: the workbook is read once (in a worker) into
 * `bulk_load_rows`, then its rows run in batches, each row in its own savepoint, and leave the
 * spool as their batch commits. What a killed process leaves in the spool is what never ran.
 */
export const sql = `
CREATE TABLE bulk_loads (
  load_id TEXT PRIMARY KEY,
  upload_id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL,
  username TEXT NOT NULL,
  sheets TEXT NOT NULL DEFAULT '[]',
  total INTEGER NOT NULL DEFAULT 0,
  done INTEGER NOT NULL DEFAULT 0,
  ok INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE bulk_load_rows (
  load_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  sheet INTEGER NOT NULL,
  row TEXT NOT NULL,
  PRIMARY KEY (load_id, seq)
) WITHOUT ROWID;
`;
