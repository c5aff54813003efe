import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { createStore } from '../domain/store';
import { ApiError } from '../errors';
import type { Db } from '../store/db';
import { isoMicros } from '../store/ids';
import { JOB_HANDLERS, type JobKind } from './job-handlers';
import { CHUNKS_AHEAD, transferablesOf, type FromWorker, type ToWorker } from './job-protocol';

/**
 * A job worker: reading and validating workbooks and writing exports, on its own read-only
 * connection to the workspace file, so none of it holds the service's event loop. One job at
 * a time; the pool hands out the next when this one answers.
 */
const file = (workerData as { file: string }).file;

function openReadOnly(): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('mmap_size = 1073741824');
  db.pragma('cache_size = -65536');
  return db;
}

const db = openReadOnly();
const store = createStore(db, () => isoMicros(new Date()), null);
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
    const result = await handler({ store, cursor: () => (cursor ??= openReadOnly()), ownConnection: true, send }, input);
    post({ type: 'done', id, result }, transferablesOf(result));
  } catch (error) {
    if (error instanceof ApiError) {
      post({ type: 'fail', id, fault: { httpCode: error.httpCode, code: error.code, message: error.message, details: error.details }, message: error.message });
    } else {
      post({ type: 'fail', id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
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
