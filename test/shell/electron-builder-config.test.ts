import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * electron-builder.yml checked the way electron-builder checks it before a build (its own
 * schema, scheme.json), without building: a real build would download Electron.
 */
const fromBuilder = createRequire(require.resolve('electron-builder/package.json'));
const fromLib = createRequire(fromBuilder.resolve('app-builder-lib/package.json'));
const yaml = fromLib('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = fromLib('./out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  linux: { target: string[] };
  win: { target: string[] };
  mac: { target: string[] };
}

const config = yaml.load(readFileSync(join(__dirname, '..', '..', 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const quiet = { isEnabled: false, add: () => undefined };

describe('electron-builder.yml', () => {
  it("matches electron-builder's configuration schema", async () => {
    await expect(validateConfiguration(config, quiet)).resolves.toBeUndefined();
  });

  it('would catch a misspelt key', async () => {
    await expect(validateConfiguration({ ...config, asarUnpak: config.asarUnpack }, quiet)).rejects.toThrow(/asarUnpak/);
  });

  it('packages AppImage and deb, NSIS and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('ships main, preload and renderer, with better-sqlite3 outside the asar archive', () => {
    for (const folder of ['dist/main/', 'dist/preload/', 'dist/renderer/'])
      expect(config.files.some((pattern) => pattern.startsWith(folder))).toBe(true);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
  });

  it('unpacks the search worker with every module of ours it loads', () => {
    // The built worker (npm test builds first): a module it requires left in the asar would
    // stop every search in a packaged app, and nothing else here would notice.
    const worker = 'dist/main/service/search/search-worker.js';
    const source = readFileSync(join(__dirname, '..', '..', worker), 'utf8');
    const ours = [...source.matchAll(/require\("(\.\.?\/[^"]+)"\)/g)].map((match) =>
      posix.join('dist/main/service/search', `${match[1]}.js`),
    );
    expect(ours.length).toBeGreaterThan(0);
    expect(config.asarUnpack).toEqual(expect.arrayContaining([worker, ...ours]));
  });
});
