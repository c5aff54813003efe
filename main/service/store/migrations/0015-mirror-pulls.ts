/**
 * A mirror workspace (one SQLite file per remote profile, main/remote/mirror-workspace.ts) holds
 * a copy of what offline checks need of that remote, and in this table how and when it was last
 * pulled: the remote node it was pulled from, the remote's transaction time the next pull reads
 * changes from, and what was copied. One row; the table exists in every workspace file (they
 * share their migrations) and stays empty in Local.
 */
export const sql = `
CREATE TABLE mirror_pulls (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  profile_pkid TEXT NOT NULL,
  home_pkid TEXT NOT NULL,
  home_path TEXT NOT NULL,
  pulled_at TEXT NOT NULL,
  mode TEXT NOT NULL,
  watermark TEXT,
  counts TEXT NOT NULL DEFAULT '{}'
);
`;
