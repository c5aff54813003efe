/**
 * Bulk loads queued for a moment (execute_immediately false). The parent transaction exists
 * from the start (Queued); this row says when to attach and run its rows, and survives restarts.
 */
export const sql = `
CREATE TABLE scheduled_loads (
  transaction_id TEXT PRIMARY KEY,
  upload_id TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL,
  user_pkid TEXT NOT NULL,
  run_at TEXT NOT NULL,
  state TEXT NOT NULL
);
`;
