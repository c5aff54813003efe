import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/**
 * Opens the app in the system's Chromium as an app window (its own profile in the data folder),
 * else in the default browser. Returns how it was opened, for the one-line explanation.
 */
export function openInBrowser(url: string, dataDir: string): string {
  const chromium = process.env.WORKSTATION_BROWSER ?? CHROMIUMS.find((candidate) => existsSync(candidate));
  if (chromium) {
    const profile = join(dataDir, 'browser-profile');
    mkdirSync(profile, { recursive: true });
    const args = [
      `--app=${url}`,
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ];
    spawn(chromium, args, { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
    return `an app window of ${chromium}`;
  }
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawn(opener, [url], { stdio: 'ignore', detached: true })
    .on('error', () => undefined)
    .unref();
  return 'the default browser';
}
