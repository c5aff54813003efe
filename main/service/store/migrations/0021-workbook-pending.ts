/**
 * A big edit (or its undo) is applied in slices, each its own commit, so that it never holds the
 * service's thread (workbooks/sliced-apply.ts). Each slice writes here, in its commit, the ops that
 * undo it; the edit's last commit writes its revision and clears these. What a killed process left
 * here is undone at the next start, so a workbook is always at a whole revision.
 */
export const sql = `
CREATE TABLE workbook_pending (
  wb INTEGER NOT NULL,
  part INTEGER NOT NULL,
  undo TEXT NOT NULL,
  PRIMARY KEY (wb, part)
) WITHOUT ROWID;
`;
