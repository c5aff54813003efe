/**
 * Browser sessions of server mode live in the store, so a restart no longer signs every browser
 * out (issue 14, point 6). Only a SHA-256 of the session id is kept: a copy of the file never
 * holds a cookie that signs anyone in. The CSRF token is stored as is: alone it authenticates
 * nothing, and every answer must repeat it. `origin` says how the session began: a login, or
 * Basic credentials (the spec's Authentication, point 2: those answers set the cookies too).
 * Times are epoch milliseconds: sessions expire on idle time, compared as numbers.
 */
export const sql = `
CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_pkid TEXT NOT NULL,
  csrf_token TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('login', 'basic')),
  created_ms INTEGER NOT NULL,
  last_seen_ms INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_pkid);
CREATE INDEX sessions_last_seen ON sessions(last_seen_ms);
`;
