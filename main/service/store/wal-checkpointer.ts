import { Worker } from 'node:worker_threads';
import { compiledWorker } from '../worker-script';
import type { Db } from './db';

/**
 * While a bulk load writes, the write-ahead log is copied back into the workspace file by a
 * thread of its own instead of by the commits that cross SQLite's automatic threshold (1,000
 * pages): measured on a 20,000-row load, those checkpoints were two thirds of the time spent
 * committing batches, and they held the service's thread while they ran. Held by each load
 * that runs (`hold`/`release`); where no compiled worker exists (tests that run the TypeScript
 * sources) SQLite keeps checkpointing as usual.
 *
 * SQLite starts the log again from its beginning only when every frame has been copied as a
 * write begins, which a writer that never pauses does not allow: past LOG_LIMIT_FRAMES the load
 * waits (`lagging`) for the copy to catch up, so the log stays bounded (about 64 MB).
 */
const AUTOCHECKPOINT_PAGES = 1000;
// Every 10 ms rather than 20: a 100,000-row load then waited 0.5 s in all for the copy to catch
// up instead of 1.0-1.1 s (5% of the load); every 5 ms waited no less in time and did twice the fsyncs.
const CHECKPOINT_EVERY_MS = 10;
const LOG_LIMIT_FRAMES = 16_384;
const POLL_MS = 5;
/** The longest a load waits for the copy; then it goes on, and does not wait again for PATIENT_MS. */
const MAX_WAIT_MS = 250;
const PATIENT_MS = 5000;

export class WalCheckpointer {
  private readonly script = compiledWorker(__dirname, 'store', 'checkpoint-worker.js');
  private worker?: Worker;
  private holds = 0;
  /** The checkpoint count when the last wait ended. */
  private resumedAtTick = -1;
  /** Until then the load does not wait: the last wait was given up (a long reader holds the log). */
  private patientUntil = 0;
  /** [frames in the log, frames copied, checkpoints done], as of the worker's last checkpoint. */
  private readonly progress = new Int32Array(new SharedArrayBuffer(12));

  constructor(private readonly db: Db) {}

  hold(): void {
    this.holds += 1;
    if (this.holds > 1 || !this.script || this.db.memory) return;
    this.progress.fill(0);
    this.resumedAtTick = -1;
    this.patientUntil = 0;
    const worker = new Worker(this.script, {
      workerData: { file: this.db.name, everyMs: CHECKPOINT_EVERY_MS, progress: this.progress.buffer },
    });
    // A checkpointer that fails hands the job back to SQLite's own.
    worker.on('error', () => this.stop());
    worker.unref();
    this.worker = worker;
    this.db.pragma('wal_autocheckpoint = 0');
  }

  release(): void {
    this.holds = Math.max(0, this.holds - 1);
    if (this.holds === 0) this.stop();
  }

  /**
   * A promise when the log has outgrown its limit: it settles after a checkpoint that began
   * after the load paused has copied every frame, so the load's next write starts the log again.
   * A reader in the middle of a long read (an export, a validation) keeps frames from being
   * copied; after MAX_WAIT_MS the load goes on without waiting for a while, as SQLite's own
   * checkpoints would (the log then grows until that reader is done).
   */
  lagging(): Promise<void> | undefined {
    if (!this.worker || Atomics.load(this.progress, 0) <= LOG_LIMIT_FRAMES || Date.now() < this.patientUntil) return undefined;
    // The log starts again at the load's next write: until a checkpoint reports that, no new wait.
    if (Atomics.load(this.progress, 2) <= this.resumedAtTick) return undefined;
    // The checkpoint running now may have begun before the last commit: wait for the one after.
    const after = Atomics.load(this.progress, 2) + 1;
    const givenUpAt = Date.now() + MAX_WAIT_MS;
    return new Promise((resolve) => {
      const poll = (): void => {
        const caughtUp = Atomics.load(this.progress, 2) > after && Atomics.load(this.progress, 1) >= Atomics.load(this.progress, 0);
        if (!this.worker || caughtUp || Date.now() >= givenUpAt) {
          this.resumedAtTick = Atomics.load(this.progress, 2);
          if (!caughtUp) this.patientUntil = Date.now() + PATIENT_MS;
          resolve();
        } else {
          setTimeout(poll, POLL_MS);
        }
      };
      setTimeout(poll, POLL_MS);
    });
  }

  close(): void {
    this.holds = 0;
    this.stop();
  }

  private stop(): void {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    worker.postMessage('stop');
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
