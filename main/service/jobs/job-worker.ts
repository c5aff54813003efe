import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { createStore } from '../domain/store';
import type { Db } from '../store/db';
import { isoMicrosAt } from '../store/ids';
import { heapAfterJob } from './heap-trim';
import { JOB_HANDLERS, type JobKind } from './job-handlers';
import { CHUNKS_AHEAD, failureOf, transferablesOf, type FromWorker, type ToWorker } from './job-protocol';

/**
 * A job worker: reading and validating workbooks and writing exports, on its own read-only
 * connection to the workspace file, so none of it holds the service's event loop. One job at
 * a time; the pool hands out the next when this one answers.
 */
const file = (workerData as { file: string }).file;

/**
 * Read-only, and without mmap: a job reads a table end to end (an export of 100,000 lines), and
 * through a memory map every page it touches stays counted in the service's memory (680 MB of
 * the bench's export were such pages). Read through SQLite's cache instead, the pages are the
 * operating system's file cache, shared and reclaimable, and the job holds only `cacheMb`.
 */
function openReadOnly(cacheMb: number): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('mmap_size = 0');
  db.pragma(`cache_size = -${cacheMb * 1024}`);
  return db;
}

// Look-ups (validation's keys, an export's nodes) reuse pages; a cursor's scan never does.
const db = openReadOnly(32);
const store = createStore(db, () => isoMicrosAt(Date.now()), null);
let cursor: Db | undefined;

/** Chunks sent and not yet acknowledged, and who waits for room. */
let unacknowledged = 0;
let waitingForRoom: (() => void) | undefined;

const post = (message: FromWorker, transfer: ArrayBuffer[] = []): void => parentPort?.postMessage(message, transfer);

async function run(id: number, kind: JobKind, input: unknown): Promise<void> {
  unacknowledged = 0;
  const send = async (chunk: unknown): Promise<void> => {
    unacknowledged += 1;
    post({ type: 'chunk', id, chunk });
    if (unacknowledged >= CHUNKS_AHEAD) await new Promise<void>((resolve) => (waitingForRoom = resolve));
  };
  try {
    const handler = JOB_HANDLERS[kind] as (ctx: Parameters<(typeof JOB_HANDLERS)[JobKind]>[0], input: unknown) => Promise<unknown>;
    const result = await handler({ store, cursor: () => (cursor ??= openReadOnly(4)), ownConnection: true, send }, input);
    post({ type: 'done', id, result, heapBytes: heapAfterJob() }, transferablesOf(result));
  } catch (error) {
    post({ type: 'fail', id, ...failureOf(error), heapBytes: heapAfterJob() });
  } finally {
    // What this job read must not be kept: the next one may come after many commits.
    store.nodes.clearCache();
  }
}

parentPort?.on('message', (message: ToWorker) => {
  if (message.type === 'ack') {
    unacknowledged = Math.max(0, unacknowledged - 1);
    const waiting = waitingForRoom;
    waitingForRoom = undefined;
    waiting?.();
    return;
  }
  void run(message.id, message.kind as JobKind, message.input);
});
