import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Copies the write-ahead log back into the workspace file on a thread of its own while a bulk
 * load writes (wal-checkpointer.ts). PASSIVE never waits for the writer or readers: it copies
 * the frames committed so far and leaves the rest for the next tick. After each, the frames in
 * the log, those copied and a count of checkpoints are published in `progress` for the writer.
 */
const { file, everyMs, progress } = workerData as { file: string; everyMs: number; progress: SharedArrayBuffer };
const published = new Int32Array(progress);
const db = new Database(file, { fileMustExist: true });
// Never wait on a lock: a busy checkpoint is simply tried again at the next tick.
db.pragma('busy_timeout = 0');

const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    Atomics.store(published, 0, result.log);
    Atomics.store(published, 1, result.checkpointed);
    Atomics.add(published, 2, 1);
  } catch {
    // SQLITE_BUSY: another checkpoint is running; the next tick tries again.
  }
}, everyMs);

parentPort?.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
