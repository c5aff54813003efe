/**
 * Initial schema. Hierarchy nodes are instances like any other resource; `nodes` is the tree
 * index beside them (dot paths, parents) so subtree and ancestor lookups are index range scans.
 */
export const sql = `
CREATE TABLE nodes (
  pkid TEXT PRIMARY KEY,
  parent_pkid TEXT REFERENCES nodes(pkid),
  name TEXT NOT NULL,
  path TEXT NOT NULL UNIQUE,
  node_type TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX nodes_parent ON nodes(parent_pkid);

CREATE TABLE instances (
  id INTEGER PRIMARY KEY,
  pkid TEXT NOT NULL UNIQUE,
  model_type TEXT NOT NULL,
  hierarchy_pkid TEXT NOT NULL REFERENCES nodes(pkid),
  data TEXT NOT NULL,
  bkey TEXT,
  links TEXT NOT NULL DEFAULT '{}',
  tags TEXT NOT NULL DEFAULT '[]',
  version_tag TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX instances_model_hierarchy ON instances(model_type, hierarchy_pkid);
CREATE INDEX instances_model_bkey ON instances(model_type, bkey);

CREATE TABLE user_credentials (
  user_pkid TEXT PRIMARY KEY,
  password_hash TEXT NOT NULL,
  changed_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE transactions (
  id INTEGER PRIMARY KEY,
  transaction_id TEXT NOT NULL UNIQUE,
  parent_id TEXT,
  status TEXT NOT NULL,
  rolled_back TEXT NOT NULL DEFAULT 'No',
  action TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT '',
  message TEXT NOT NULL DEFAULT '',
  priority TEXT NOT NULL DEFAULT 'Normal',
  username TEXT NOT NULL,
  model_type TEXT NOT NULL DEFAULT '',
  hierarchy_pkid TEXT,
  hierarchy_path TEXT NOT NULL DEFAULT '',
  resource_pkid TEXT,
  current_state TEXT NOT NULL DEFAULT '',
  submitted_time TEXT NOT NULL,
  started_time TEXT,
  completed_time TEXT
);
CREATE INDEX transactions_parent ON transactions(parent_id);
CREATE INDEX transactions_status ON transactions(status);
CREATE INDEX transactions_hierarchy ON transactions(hierarchy_pkid);

CREATE TABLE transaction_logs (
  log_id INTEGER PRIMARY KEY,
  transaction_id TEXT NOT NULL,
  severity TEXT NOT NULL,
  format TEXT NOT NULL DEFAULT 'text',
  time TEXT NOT NULL,
  message TEXT NOT NULL
);
CREATE INDEX transaction_logs_tx ON transaction_logs(transaction_id, log_id);
`;
