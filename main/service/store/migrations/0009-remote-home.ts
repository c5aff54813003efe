/**
 * A remote profile's home hierarchy (issue 14): the node the remote user's part of the tree
 * starts at, for deployments that only speak the spec and so have no `/api/whoami/` to say it.
 * Null: the remote's whoami is asked.
 */
export const sql = `
ALTER TABLE remote_profiles ADD COLUMN home_hierarchy TEXT;
`;
