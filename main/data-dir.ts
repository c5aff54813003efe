import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's folder name under the per-user config folder (the package name). */
export const APP_FOLDER = 'provisioning-workstation';

/**
 * Where data lives when no `--data` is given: WORKSTATION_DATA, else `<per-user config folder>/
 * provisioning-workstation`. The one rule for every door: browser mode, the CLI and the desktop
 * shell all call this, and the shell makes it Electron's `userData` too (rather than trusting
 * Electron's own guess, which follows the product name in a packaged build and "Electron" in a
 * dev run), so the desktop app and server mode always share their workspaces.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.WORKSTATION_DATA) return env.WORKSTATION_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER);
}
