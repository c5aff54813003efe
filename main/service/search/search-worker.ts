import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { PlanChoices, type ProbeCounts } from '../list/scope-plan';
import type { SearchStatements } from './search-pool';

/**
 * A search worker: its own read-only connection to the workspace file, so a search of a
 * million rows never holds the service's event loop. It runs the SQL the main thread compiled
 * (after the reach checks): a statement that writes the whole answer (search-answer.ts), in
 * the plan its probe chooses (list/scope-plan.ts).
 */
export interface SearchJob extends SearchStatements {
  id: number;
}

/** The answer's JSON as UTF-8 bytes, handed over (not copied) to the main thread. */
export type SearchJobResult = { id: number; bytes: Uint8Array } | { id: number; error: string };

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('mmap_size = 1073741824');
db.pragma('cache_size = -65536');
const statements = new Map<string, Database.Statement>();

/**
 * Statements by SQL text: a search's SQL varies with the query's shape and its scope's, not
 * with the values, so the same few statements serve every search and are prepared once.
 */
function statementFor(sql: string): Database.Statement {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size > 200) statements.clear();
    statement = db.prepare(sql).raw(true);
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * The blob better-sqlite3 returns owns its whole ArrayBuffer, which is then moved to the main
 * thread, not copied; a view into a larger buffer (never seen, but not promised) is copied first.
 */
function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

const choices = new PlanChoices();

function run(job: SearchJob): SearchJobResult {
  const probe = (sql: { sql: string; params: unknown[] }): ProbeCounts => statementFor(sql.sql).get(...sql.params) as ProbeCounts;
  const answer = job.narrow && choices.narrow(job.narrow.probe, probe) ? job.narrow.answer : job.answer;
  const [bytes] = statementFor(answer.sql).get(...answer.params) as [Uint8Array];
  return { id: job.id, bytes: ownBuffer(bytes) };
}

parentPort?.on('message', (job: SearchJob) => {
  try {
    const result = run(job);
    parentPort?.postMessage(result, 'bytes' in result ? [result.bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
