import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config';
import type { FullOutcome } from './bench-steps';

/** bench-results/ at the project root (gitignored); dist/test/bench/ is three levels below it. */
const RESULTS_DIR = join(__dirname, '..', '..', '..', 'bench-results');

/** Writes the run as JSON, one file per run, named by its start time; returns the path. */
export function writeResults(startedAt: Date, config: BenchConfig, outcome: FullOutcome, passed: boolean): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  // Everything but the password, which was random and is of no use after the run.
  const settings = { ...config, adminPassword: undefined };
  const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: totalmem() / 2 ** 30, node: process.version };
  writeFileSync(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), passed, settings, machine, ...outcome }, null, 2)}\n`);
  return file;
}
