/**
 * A step log written whole in one row: a bulk-load row's sub-transaction finishes inside its
 * batch with all of its eight or so entries known, and one row with them as a JSON array in
 * `lines` ([severity, time, message] each) costs a fifth of eight rows and eight index entries.
 * Such a row takes a block of log ids: its own `log_id` is the block's last, and its entries
 * are numbered up to it (transactions-repo.ts), so every entry keeps an id of its own, as the
 * API's `log_id` requires. Rows without `lines` are single entries, as before.
 */
export const sql = `
ALTER TABLE transaction_logs ADD COLUMN lines TEXT;
`;
