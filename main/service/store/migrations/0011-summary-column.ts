/**
 * Each instance's summary attributes beside its document: `summary` holds them as a small JSON
 * object (each attribute of its model, in order, null where absent), written with every write
 * of the instance (`summary-values.ts`). The summary indexes are built on it rather than on
 * `data`, so a write that changes the document but not its summary (a phone gaining a line)
 * leaves every summary index alone, and indexing a new instance parses a small object instead
 * of the whole document. Which attributes a model summarises comes from the model registry, so
 * the column is filled at open, model by model, as each model's indexes are made
 * (`summary-indexes.ts`), not here.
 */
export const sql = `
ALTER TABLE instances ADD COLUMN summary TEXT NOT NULL DEFAULT '{}';
`;
