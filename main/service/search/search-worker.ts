import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchRow } from './search-compiler';
import { resourcesJson } from './search-answer';

/**
 * A search worker: its own read-only connection to the workspace file, so a search of a
 * million rows never holds the service's event loop. It runs the SQL the main thread compiled
 * (after the reach checks) and answers the resources' JSON text.
 */
export interface SearchJob {
  id: number;
  sql: string;
  params: unknown[];
}

/** The resources' JSON as UTF-8 bytes, handed over (not copied) to the main thread. */
export type SearchJobResult = { id: number; bytes: Uint8Array; count: number } | { id: number; error: string };

const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
db.pragma('mmap_size = 1073741824');
db.pragma('cache_size = -65536');
const statements = new Map<string, Database.Statement>();
const pathOf = db.prepare<[string], { path: string }>('SELECT path FROM nodes WHERE pkid = ?');

function run(job: SearchJob): SearchJobResult {
  let statement = statements.get(job.sql);
  if (!statement) {
    if (statements.size > 200) statements.clear();
    statement = db.prepare(job.sql);
    statements.set(job.sql, statement);
  }
  const rows = statement.raw(true).all(...job.params) as SearchRow[];
  const paths = new Map<string, string>();
  const json = resourcesJson(rows, (pkid) => {
    let path = paths.get(pkid);
    if (path === undefined) paths.set(pkid, (path = pathOf.get(pkid)?.path ?? ''));
    return path;
  });
  return { id: job.id, bytes: new Uint8Array(Buffer.from(json)), count: rows.length };
}

parentPort?.on('message', (job: SearchJob) => {
  try {
    const result = run(job);
    parentPort?.postMessage(result, 'bytes' in result ? [result.bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    parentPort?.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
