/**
 * Pushes of staged workbooks to a remote profile (main/remote/sync-push.ts). A push has an
 * identity the remote keeps: its file's name, which the remote's bulk-load transaction names in
 * its detail from the moment it is submitted. A push resumed after any interruption reads its
 * state here and, before it submits anything, looks on the remote for its own load by that name:
 * no row is ever loaded twice. `rows`: JSON [row_id, sheet name, row number in the pushed file][].
 */
export const sql = `
CREATE TABLE workbook_pushes (
  push_id TEXT PRIMARY KEY,
  wb INTEGER NOT NULL,
  profile_pkid TEXT NOT NULL,
  state TEXT NOT NULL,
  file_name TEXT NOT NULL,
  rows TEXT NOT NULL,
  remote_transaction_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX workbook_pushes_wb ON workbook_pushes (wb, state);
`;
