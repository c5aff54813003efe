/**
 * Step logs found by their transaction's row number instead of its UUID. Transaction ids are
 * random (UUID v4, decisions.md), so an index led by them put each of a bulk-load row's eight
 * log entries at a random place in an index of millions: every commit wrote a fresh page per
 * row. Keyed by `transactions.id`, which grows, new entries append. The UUID column stays, as
 * written, for anyone reading the file by hand.
 */
export const sql = `
ALTER TABLE transaction_logs ADD COLUMN tx_row INTEGER;
UPDATE transaction_logs SET tx_row = (SELECT t.id FROM transactions t WHERE t.transaction_id = transaction_logs.transaction_id);
DROP INDEX transaction_logs_tx;
CREATE INDEX transaction_logs_tx_row ON transaction_logs(tx_row, log_id);
`;
