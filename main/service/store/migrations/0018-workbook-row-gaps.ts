/**
 * A staged sheet keeps only the rows that hold a value; `row_gaps` (JSON `[idx, skip][]`,
 * workbooks/row-gaps.ts) records the empty rows of the file between them, so every stored row
 * keeps its Excel row number. Sheets staged before it have none: their blank rows were stored.
 */
export const sql = `
ALTER TABLE workbook_sheets ADD COLUMN row_gaps TEXT NOT NULL DEFAULT '[]';
`;
