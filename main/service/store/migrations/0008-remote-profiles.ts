/**
 * Remote profiles (issue 14): where a remote deployment is and how to reach it. There is no
 * password column on purpose: passwords live in a credential vault (memory for server mode and
 * the CLI, Electron's safeStorage for the desktop app), never in this file. A profile belongs to
 * the node of the admin who made it; admins at or above that node may use it.
 */
export const sql = `
CREATE TABLE remote_profiles (
  pkid TEXT PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  base_url TEXT NOT NULL,
  username TEXT NOT NULL,
  auth_mode TEXT NOT NULL CHECK (auth_mode IN ('session', 'basic')),
  ca_pem TEXT,
  connect_timeout_ms INTEGER NOT NULL,
  response_timeout_ms INTEGER NOT NULL,
  idle_timeout_ms INTEGER NOT NULL,
  release TEXT,
  detected_release TEXT CHECK (detected_release IN ('before-21.1', '21.1-or-later')),
  detected_at TEXT,
  owner_pkid TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`;
