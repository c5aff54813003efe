/**
 * A parent transaction's answer counts its sub-transactions by status at each poll
 * (decisions.md: a parent's answer is bounded). With `(parent_id, status)` the count reads the
 * index alone: a 100,000-row load's counts take a few ms instead of a lookup of every row.
 */
export const sql = `
CREATE INDEX transactions_parent_status ON transactions(parent_id, status);
`;
