/**
 * Customer sheets mapped onto a model (issue "Customer sheets in any shape").
 * `workbook_mappings`: a staged workbook whose sheet did not name a model's fields waits in the
 * `mapping` state with the proposal for its columns; once confirmed, the mapping it was staged
 * with, so that it can be reopened and changed. The customer's file is the upload it came from.
 * `saved_mappings`: mappings saved by name at a customer's node, for one model, with the headers
 * they were made for: proposed first for a sheet with the same or similar headers at or below it.
 */
export const sql = `
CREATE TABLE workbook_mappings (
  wb INTEGER PRIMARY KEY,
  upload_id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  reason TEXT NOT NULL,
  proposal TEXT NOT NULL,
  mapping TEXT NOT NULL,
  remembered INTEGER,
  applied INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE saved_mappings (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  node_pkid TEXT NOT NULL,
  model_type TEXT NOT NULL,
  headers TEXT NOT NULL,
  mapping TEXT NOT NULL,
  owner TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (node_pkid, name)
);
CREATE INDEX saved_mappings_node ON saved_mappings (node_pkid);
`;
