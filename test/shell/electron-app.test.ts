import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectron } from '../../main/electron-binary';
import type { BridgeResponse, WorkstationBridge } from '../../preload/bridge-types';

/**
 * The built desktop shell in a real Electron, driven by Playwright: the window, the bridge and
 * the hardening as a page sees them. It needs what the build machines lack, so it runs only
 * where all of it is present and otherwise reports, once, why it was skipped:
 * - Electron's binary (npm cannot download it here; main/electron-binary.ts finds it);
 * - a display (on Linux, run under xvfb-run);
 * - `npm run build` (the shell in dist/main, the renderer in dist/renderer);
 * - better-sqlite3 rebuilt for Electron's ABI (`npx electron-builder install-app-deps`), which
 *   in turn breaks it for the Node tests until `npm rebuild better-sqlite3`. This suite never
 *   rebuilds anything itself.
 */
const projectDir = join(__dirname, '..', '..');

function sqliteBuiltForNode(): boolean {
  try {
    // Loads in this Node only when compiled for Node's ABI, and then it cannot load in Electron.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    return true;
  } catch {
    return false;
  }
}

function blocker(): string | undefined {
  const electron = findElectron();
  if (electron.binary === undefined) return electron.reason;
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (run under xvfb-run)';
  for (const built of ['dist/main/shell/main.js', 'dist/preload/index.js', 'dist/renderer/index.html']) {
    if (!existsSync(join(projectDir, built))) return `${built} is missing (run npm run build)`;
  }
  if (sqliteBuiltForNode()) return 'better-sqlite3 is built for Node, not Electron (npx electron-builder install-app-deps)';
  return undefined;
}

const skipReason = blocker();
if (skipReason) console.log(`electron suite skipped: ${skipReason}`);

/** What the page's global scope offers; page.evaluate callbacks run in the page, so each casts globalThis itself. */
type PageGlobals = { workstation: WorkstationBridge; open(url: string): unknown; location: { href: string } };

describe.skipIf(skipReason !== undefined)('the desktop shell in Electron', () => {
  let dataDir: string;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'workstation-electron-'));
    const binary = findElectron().binary as string;
    // Chromium refuses to start as root with its OS sandbox on (CI containers).
    const rootArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    // Set, ELECTRON_RUN_AS_NODE would start a bare Node instead of the app.
    const inherited = Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== 'ELECTRON_RUN_AS_NODE',
    );
    const env = { ...Object.fromEntries(inherited), WORKSTATION_DATA: dataDir };
    app = await _electron.launch({ executablePath: binary, args: [...rootArgs, projectDir], env });
    page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens one window titled Provisioning Workstation, on the data folder it was given', async () => {
    expect(await page.title()).toBe('Provisioning Workstation');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((window) => window.getTitle()))).toEqual([
      'Provisioning Workstation',
    ]);
    expect(existsSync(join(dataDir, 'workspaces', 'Local.sqlite'))).toBe(true);
  });

  it('answers the API through window.workstation.request', async () => {
    const whoami = await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).workstation.request({ method: 'GET', url: '/api/whoami/' }),
    );
    let answered: BridgeResponse = whoami;
    if (whoami.status === 404) {
      answered = await page.evaluate(() =>
        (globalThis as unknown as PageGlobals).workstation.request({ method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys' }),
      );
    }
    expect(answered.status).toBe(200);
  });

  it('gives the page no Node: no require, no process', async () => {
    const kinds = await page.evaluate(() => {
      const scope = globalThis as Record<string, unknown>;
      return [typeof scope.require, typeof scope.process, typeof scope.module];
    });
    expect(kinds).toEqual(['undefined', 'undefined', 'undefined']);
  });

  it('opens no new window', async () => {
    const opened = await page.evaluate(() => (globalThis as unknown as PageGlobals).open('https://example.com/'));
    expect(opened).toBeNull();
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });

  it('does not navigate away from the app page', async () => {
    const appUrl = page.url();
    // A bounded wait for an event that must not come, not a sleep before a check.
    const navigated = page.waitForEvent('framenavigated', { timeout: 2_000 }).then(
      () => true,
      () => false,
    );
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).location.href = 'https://example.com/';
    });
    expect(await navigated).toBe(false);
    expect(page.url()).toBe(appUrl);
  });
});
