/**
 * An upload belongs to the user who sent it (decisions.md, Bulk load sheets): a bulk load by name
 * must never pick up a file someone else planted under that name. Uploads made before this
 * migration recorded only the sender's username; they are given to the user of that name who
 * existed when the file arrived. A file whose sender cannot be told that way keeps a NULL owner,
 * which only admins at `sys` may use.
 */
export const sql = `
ALTER TABLE uploads ADD COLUMN owner_pkid TEXT;
UPDATE uploads SET owner_pkid = (
  SELECT i.pkid FROM instances i
  WHERE i.model_type = 'data/User' AND i.bkey = json_array(uploads.username) AND i.created_at <= uploads.created_at
  ORDER BY i.created_at DESC LIMIT 1
);
CREATE INDEX uploads_owner_name ON uploads(owner_pkid, name, seq);
`;
