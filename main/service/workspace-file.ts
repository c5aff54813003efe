import { join } from 'node:path';

/** The SQLite file of a workspace (`Local`, or a remote profile's mirror) in a data folder. */
export function workspaceFile(dataDir: string, workspace = 'Local'): string {
  // The name becomes a file name: never a path.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(workspace))
    throw new Error(`Workspace name ${JSON.stringify(workspace)} must be letters, digits, - or _.`);
  return join(dataDir, 'workspaces', `${workspace}.sqlite`);
}
