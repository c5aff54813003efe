/**
 * Reverting a load (issue 33). `transaction_changes`: what each bulk-load row changed, written in
 * the row's own commit with its sub-transaction (found by its row number, as packed logs are): every
 * instance it wrote, as it was before the row's first write and after its last. A revert is built
 * from these, never from the step log's text.
 *
 * `reverts`: a staged workbook that reverts a load (named by the workbook's id, which is never
 * reused where its number may be), and the load it reverts. `revert_targets`: per instance the
 * revert works on, the version the load left it at: a target at any other version has changed
 * since the load and is a conflict, never reverted blindly; `recreate` marks an instance the load
 * deleted, made again under its pkid; `shared` one a later row of the load changed beside its own
 * instance, which only its row checks, once the revert's earlier rows have put it back; `restore` what its row puts back exactly once its
 * workflow has run (domain/restore-images.ts). `revert_loads`: each load of a revert workbook, so that a
 * revert's transaction leads back to the load it reverts.
 */
export const sql = `
CREATE TABLE transaction_changes (
  tx_row INTEGER PRIMARY KEY,
  changes TEXT NOT NULL
);
CREATE TABLE reverts (
  workbook_id TEXT PRIMARY KEY,
  original_id TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX reverts_original ON reverts(original_id);
CREATE TABLE revert_targets (
  workbook_id TEXT NOT NULL,
  pkid TEXT NOT NULL,
  model_type TEXT NOT NULL,
  recreate INTEGER NOT NULL,
  shared INTEGER NOT NULL,
  after_version TEXT,
  after TEXT,
  restore TEXT,
  PRIMARY KEY (workbook_id, pkid)
) WITHOUT ROWID;
CREATE TABLE revert_loads (
  load_id TEXT PRIMARY KEY,
  workbook_id TEXT NOT NULL
);
`;
