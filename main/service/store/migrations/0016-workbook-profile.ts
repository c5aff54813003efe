/**
 * A staged workbook may target a remote profile instead of the Local store: it is then checked
 * and planned against that profile's mirror (main/remote/mirror-workspace.ts), and loaded on the
 * remote by `sync push`, never here. Null: the Local store, as every workbook before.
 */
export const sql = `
ALTER TABLE workbooks ADD COLUMN profile_pkid TEXT;
`;
