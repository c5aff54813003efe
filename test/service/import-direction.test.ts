import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Imports run one way: routes -> domain -> store. Bulk load, sheets, exports and the domain
 * share code with the routes through `domain/`, never by importing `routes/`; only the request
 * pipeline (and the service that builds it) reaches into `routes/`, to dispatch.
 */
const SERVICE = resolve(__dirname, '../../main/service');
const ROUTES = join(SERVICE, 'routes');
const MAY_IMPORT_ROUTES = new Set(['request-pipeline.ts', 'index.ts'].map((file) => join(SERVICE, file)));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative module specifiers a file imports (static imports, re-exports and import()). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']*)'/g)].map((match) => match[1]);
  return found.map((specifier) => resolve(dirname(file), specifier));
}

const inRoutes = (path: string): boolean => path === ROUTES || path.startsWith(`${ROUTES}/`);

describe('import direction', () => {
  it('keeps every module outside routes/ from importing it, but the request pipeline', () => {
    const files = sourcesUnder(SERVICE);
    expect(files.length).toBeGreaterThan(100);
    const wrong = files
      .filter((file) => !inRoutes(file) && !MAY_IMPORT_ROUTES.has(file))
      .flatMap((file) =>
        importsOf(file)
          .filter(inRoutes)
          .map((target) => `${relative(SERVICE, file)} -> ${relative(SERVICE, target)}`),
      );
    expect(wrong).toEqual([]);
  });

  it('sees an import of routes/ where there is one (the pipeline dispatches through it)', () => {
    // Without this, a pattern that matched nothing would pass the test above for any tree.
    const pipeline = importsOf(join(SERVICE, 'request-pipeline.ts'));
    expect(pipeline.some(inRoutes)).toBe(true);
  });
});
