/**
 * Uploaded files: the bytes live in the workspace's uploads folder under the row's id; the
 * name a user gave is only data, never part of a path.
 */
export const sql = `
CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL,
  username TEXT NOT NULL,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX uploads_name ON uploads(name, seq);
`;
