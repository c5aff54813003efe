import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type ElectronLookup = { binary: string } | { binary?: undefined; reason: string };

/**
 * Finds the Electron executable without requiring the electron package, whose entry tries to download the
 * binary when it is missing: machines without network access must fall back at once. When there is none,
 * says why, for `npm start` and for the skipped Electron test suite.
 */
export function findElectron(): ElectronLookup {
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve('electron/package.json'));
  } catch {
    return { reason: 'the electron package is not installed' };
  }
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: "Electron's binary is not installed (node_modules/electron/path.txt missing)" };
  const relative = readFileSync(pathFile, 'utf8').trim();
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const binary = join(distDir, relative);
  return existsSync(binary) ? { binary } : { reason: `Electron's binary is missing at ${binary}` };
}
