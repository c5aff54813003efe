import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's folder name; Electron derives `userData` from the package name the same way. */
export const APP_FOLDER = 'provisioning-workstation';

/**
 * Where data lives when no `--data` is given: WORKSTATION_DATA, else the same folder Electron's
 * `app.getPath('userData')` gives, so the desktop app and server mode share their workspaces.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.WORKSTATION_DATA) return env.WORKSTATION_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
}
