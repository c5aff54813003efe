import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session } from 'electron';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultDataDir } from '../data-dir';
import { createService, type Service } from '../service';
import type { ApiRequest, ApiResponse } from '../service/api-types';
import type { Principal } from '../service/auth/principal';
import { registerApiHandler } from './api-ipc';
import { registerFileDialogs, type DialogLike } from './file-dialogs';
import { SafeStorageVault } from './safe-storage-vault';
import { aboutDialogOptions, buildAppMenu, type MenuContext } from './app-menu';
import { forwardServiceEvents } from './service-events';
import { hardenApp, hardenSession, hardenWindow, isAppPage, secureWebPreferences } from './window-security';

/**
 * The desktop shell: app lifecycle, one hardened window, the menu, and the IPC door to the
 * service. No business logic lives here; no port is opened.
 */
const PRODUCT_NAME = 'Provisioning Workstation';
const APP_PAGE = pathToFileURL(join(__dirname, '..', '..', 'renderer', 'index.html')).toString();
const PRELOAD = join(__dirname, '..', '..', 'preload', 'index.js');

// One data folder for every door: defaultDataDir() (WORKSTATION_DATA, else the per-user config
// folder), made Electron's userData as well. The single-instance lock is taken in userData, so
// it guards exactly one writer per data folder; Chromium's own files go to a subfolder.
const dataDir = defaultDataDir();
mkdirSync(dataDir, { recursive: true });
app.setName(PRODUCT_NAME);
app.setPath('userData', dataDir);
app.setPath('sessionData', join(dataDir, 'chromium'));
hardenApp(app);

function localPrincipal(service: Service): Principal {
  const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  if (!admin) throw new Error('The local store has no admin user.');
  return { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
}

function installMenu(window: BrowserWindow): void {
  const context: MenuContext = {
    isMac: process.platform === 'darwin',
    isPackaged: app.isPackaged,
    appName: PRODUCT_NAME,
    version: app.getVersion(),
  };
  const showAbout = (): void => void dialog.showMessageBox(window, aboutDialogOptions(context, dataDir));
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildAppMenu(context, { showAbout })));
}

/** Electron's dialogs, modal to the app's window when there is one. */
function windowDialogs(): DialogLike {
  const parent = (): BrowserWindow | undefined => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  return {
    showOpenDialog(options) {
      const window = parent();
      return window ? dialog.showOpenDialog(window, options) : dialog.showOpenDialog(options);
    },
    showSaveDialog(options) {
      const window = parent();
      return window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options);
    },
  };
}

async function openWindow(service: Service): Promise<void> {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    title: PRODUCT_NAME,
    show: false,
    webPreferences: secureWebPreferences(PRELOAD),
  });
  hardenWindow(window, APP_PAGE);
  installMenu(window);
  window.on('closed', forwardServiceEvents(service.events, window.webContents));
  window.once('ready-to-show', () => window.show());
  await window.loadURL(APP_PAGE);
}

async function start(): Promise<void> {
  // safeStorage works only once the app is ready, which start() waits for.
  const vault = new SafeStorageVault(safeStorage, join(dataDir, 'remote-credentials.json'));
  const vaultWarning = vault.info().warning;
  if (vaultWarning) process.stderr.write(`remote passwords: ${vaultWarning}\n`);
  const service = await createService({ dataDir, vault });
  app.on('will-quit', () => service.close());
  if (service.generatedAdminPassword) {
    // The window needs no password; server mode on the same folder does.
    process.stdout.write(`created user admin at sys with password ${service.generatedAdminPassword} (shown once: keep it)\n`);
  }
  const principal = localPrincipal(service);
  hardenSession(session.defaultSession);
  const handle = (request: ApiRequest): Promise<ApiResponse> => service.handleAs(principal, request);
  const fromAppPage = (url: string): boolean => isAppPage(APP_PAGE, url);
  registerApiHandler(ipcMain, handle, fromAppPage);
  registerFileDialogs(ipcMain, windowDialogs(), handle, fromAppPage);
  await openWindow(service);
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  // The usual cause in a dev run: better-sqlite3 built for Node rather than for Electron.
  const hint = /NODE_MODULE_VERSION/.test(message) ? '\n\nRebuild native modules for Electron: npx electron-builder install-app-deps' : '';
  dialog.showErrorBox(`${PRODUCT_NAME} could not start`, `${message}${hint}\n\nData folder: ${dataDir}`);
  app.exit(1);
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const window = BrowserWindow.getAllWindows()[0];
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.whenReady().then(start).catch(fail);
}
