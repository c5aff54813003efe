import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { defaultDataDir } from './data-dir';
import { findElectron } from './electron-binary';
import { startHttpServer } from './host/http-server';
import { openInBrowser } from './open-browser';
import { createService } from './service';

/**
 * `npm start`: the desktop app when Electron's binary is installed; otherwise browser mode,
 * server mode on a free loopback port opened in the system's browser. Both use one data folder.
 */
async function browserMode(reason: string): Promise<void> {
  const dataDir = defaultDataDir();
  const service = await createService({ dataDir });
  const host = await startHttpServer({ service, port: 0, staticDir: join(__dirname, '..', 'renderer') });
  const how = process.env.WORKSTATION_NO_BROWSER ? 'no browser (WORKSTATION_NO_BROWSER is set)' : openInBrowser(host.url, dataDir);
  process.stdout.write(`${reason}: browser mode at ${host.url} in ${how}; data in ${dataDir}.\n`);
  if (service.generatedAdminPassword) {
    process.stdout.write(`created user admin at sys with password ${service.generatedAdminPassword} (shown once: keep it)\n`);
  }
  const stop = (): void => {
    void host.close().then(() => {
      service.close();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function desktopMode(binary: string): void {
  // The project folder, not the script: Electron then takes the app's name and version from
  // package.json (and its entry from "main"), as in a packaged build.
  const projectDir = join(__dirname, '..', '..');
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const child = spawn(binary, [projectDir], { stdio: 'inherit', env });
  child.on('exit', (code) => process.exit(code ?? 0));
}

const electron = findElectron();
if (electron.binary !== undefined) desktopMode(electron.binary);
else void browserMode(`No desktop window: ${electron.reason}`);
