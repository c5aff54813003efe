import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A worker thread's compiled script: beside the module that starts it (`dist/` at run time), or,
 * when that module runs from the TypeScript sources (tests), at the same place under `dist/`.
 * Undefined when neither exists: the caller then does the work on its own thread.
 */
export function compiledWorker(here: string, folder: string, file: string): string | undefined {
  const beside = join(here, file);
  if (existsSync(beside)) return beside;
  const built = join(here, '..', '..', '..', 'dist', 'main', 'service', folder, file);
  return existsSync(built) ? built : undefined;
}
