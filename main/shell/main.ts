import { app, BrowserWindow, ipcMain, session } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createService, type Service } from '../service';
import type { Principal } from '../service/auth/principal';
import { registerApiHandler } from './api-ipc';
import { hardenSession, hardenWindow } from './window-security';

/**
 * The desktop shell: app lifecycle, one hardened window, and the IPC door to the service.
 * No business logic lives here; no port is opened.
 */
const APP_PAGE = pathToFileURL(join(__dirname, '..', '..', 'renderer', 'index.html')).toString();

function localPrincipal(service: Service): Principal {
  const admin = service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  if (!admin) throw new Error('The local store has no admin user.');
  return { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
}

async function start(): Promise<void> {
  const dataDir = process.env.WORKSTATION_DATA ?? app.getPath('userData');
  const service = await createService({ dataDir });
  const principal = localPrincipal(service);
  hardenSession(session.defaultSession);
  registerApiHandler(ipcMain, (request) => service.handleAs(principal, request), (url) => url === APP_PAGE);
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Provisioning Workstation',
    webPreferences: {
      preload: join(__dirname, '..', '..', 'preload', 'index.js'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  hardenWindow(window, APP_PAGE);
  await window.loadURL(APP_PAGE);
  app.on('will-quit', () => service.close());
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => BrowserWindow.getAllWindows()[0]?.focus());
  app.on('window-all-closed', () => app.quit());
  void app.whenReady().then(start);
}
