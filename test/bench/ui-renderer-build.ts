import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from './child-process-stop';
import type { CleanupStack } from './cleanup-stack';

/** The project root: dist/test/bench/ is three levels below it. */
const PROJECT = join(__dirname, '..', '..', '..');

/**
 * The renderer the UI bench serves: by default a production build of the current sources into
 * the bench's temp folder (`npm run bench` builds only the Node side, and dist/renderer may be
 * stale or being rebuilt by someone else); BENCH_UI_STATIC names an already built folder instead.
 */
export async function rendererFolder(tempDir: string, cleanup: CleanupStack, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const given = env.BENCH_UI_STATIC;
  if (given) {
    if (!existsSync(join(given, 'index.html'))) throw new Error(`BENCH_UI_STATIC=${given} holds no index.html`);
    return given;
  }
  const outDir = join(tempDir, 'renderer');
  const vite = join(PROJECT, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = join(PROJECT, 'renderer', 'vite.config.mts');
  const child = spawn(process.execPath, [vite, 'build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: PROJECT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanup.push('stop the renderer build', () => stopChild(child));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(join(outDir, 'index.html'))) throw new Error(`the renderer build failed (exit ${code}):\n${stderr}`);
  return outDir;
}
