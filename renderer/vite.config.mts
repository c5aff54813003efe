import { resolve } from 'node:path';
import { defineConfig } from 'vite';

// The renderer is built to dist/renderer and served from the same origin as the API (server
// and browser mode) or loaded from disk by the Electron shell, hence relative asset paths.
export default defineConfig({
  root: resolve(import.meta.dirname),
  base: './',
  esbuild: { jsx: 'automatic' },
  build: { outDir: resolve(import.meta.dirname, '../dist/renderer'), emptyOutDir: true, sourcemap: true },
});
