import { randomBytes } from 'node:crypto';

/** What one bench run does; small values (BENCH_ROWS, BENCH_SECONDS) give a quick check. */
export interface BenchConfig {
  rows: number;
  /** Measured seconds per load scenario (after its warm-up). */
  seconds: number;
  warmupSeconds: number;
  /** Sites under the bench customer; lines are spread over them round robin. */
  sites: number;
  /** Prefixes rotated by the list scenarios, each matching about 0.1% of the lines. */
  listPrefixes: number;
  /** Seeded pkids handed to the instance GET scenario. */
  getSamples: number;
  adminPassword: string;
  /**
   * BENCH_ONLY: `ui` runs the seed and the UI bench only, `load` everything but the UI bench,
   * `search` the seed and the searches (their raw SQL and HTTP scenarios) only, `sheets` the
   * bulk load, validation and export of a 100,000-row workbook only (no 1M seed), `remote` the
   * live-workspace proxy beside a direct remote and a bare undici proxy only (no 1M seed),
   * `workbook` a staged workbook of 100,000 rows only (staging, edits, filtered pages, save),
   * `sync` the pull of a remote holding 100,000 lines and the push of a 10,500-row workbook only.
   */
  only?: 'ui' | 'load' | 'search' | 'sheets' | 'remote' | 'workbook' | 'sync';
}

/** A bad BENCH_* setting: reported as one line, without a stack. */
export class BenchConfigError extends Error {}

function positiveNumber(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max)
    throw new BenchConfigError(`${name} must be a positive number up to ${max}, not '${value}'`);
  return parsed;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): BenchConfig {
  const rows = Math.floor(positiveNumber('BENCH_ROWS', env.BENCH_ROWS, 1_000_000, 10_000_000));
  // Below 1,000 rows a 0.1% prefix matches nothing and the list scenario measures an empty page.
  if (rows < 1000) throw new BenchConfigError(`BENCH_ROWS must be at least 1000, not ${rows}`);
  const seconds = positiveNumber('BENCH_SECONDS', env.BENCH_SECONDS, 6, 60);
  const only = env.BENCH_ONLY || undefined;
  const known = ['ui', 'load', 'search', 'sheets', 'remote', 'workbook', 'sync'] as const;
  if (only !== undefined && !(known as readonly string[]).includes(only)) {
    throw new BenchConfigError(`BENCH_ONLY must be ${known.join(', ')}, not '${only}'`);
  }
  return {
    rows,
    seconds,
    // Long enough to fill SQLite's page cache and let V8 optimise the hot paths.
    warmupSeconds: Math.min(2, Math.max(0.5, seconds / 3)),
    sites: 10,
    listPrefixes: 4,
    getSamples: 10_000,
    // A fresh random password: the bench never relies on a known secret.
    adminPassword: `bench-${randomBytes(12).toString('base64url')}`,
    only: only as BenchConfig['only'],
  };
}

export const basicAuth = (password: string): string => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
