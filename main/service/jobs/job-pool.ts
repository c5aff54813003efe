import Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Store } from '../domain/store';
import { TooBusy } from '../errors';
import { compiledWorker } from '../worker-script';
import { JOB_HANDLERS, type JobKind, type JobInput, type JobOutput } from './job-handlers';
import { errorOf, SWOLLEN_HEAP_BYTES, type FromWorker, type ToWorker } from './job-protocol';

/**
 * Heavy jobs (reading a workbook for a load, validating one, writing an export) on worker
 * threads, so the service's event loop stays free for everyone else. Fair: a user runs at most
 * `perOwner` jobs at once while others wait their turn in order, so one user's eight exports
 * never take every worker; past `maxQueued` waiting jobs, or `maxQueuedPerOwner` of one user's,
 * the service answers 429 with Retry-After.
 */
export interface JobOptions {
  /** Whose job it is (a username): the unit of the fair share. */
  owner: string;
  onChunk?: (chunk: unknown) => void;
}

interface Queued {
  id: number;
  kind: JobKind;
  input: unknown;
  options: JobOptions;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** A chunk the service could not take (its spool write failed): the job fails with it. */
  chunkError?: Error;
}

interface Slot {
  worker: Worker;
  job?: Queued;
  /** Set while the worker has no job: it ends when this fires. */
  idle?: NodeJS.Timeout;
}

/**
 * A worker with nothing to do ends after this long, and gives its heap and its SQLite cache
 * back: after a 100,000-row validation those were about 100 MB of the service's memory for the
 * whole of the load that followed. Starting one again costs about 100 ms.
 *
 * Except one, the first slot's, kept warm (and started again when a big job swelled it): a staged
 * workbook's edit is validated on a worker, and the first edit after a pause paid the worker's
 * start, 350-460 ms measured on a busy machine, against 3-10 ms for the next. Idle and trimmed,
 * it holds about 20 MB.
 */
const IDLE_WORKER_MS = 2000;
const WARM_SLOT = 0;
const YOUNG_GENERATION_MB = 16;

/** What a refused job's Retry-After says: a few jobs' time, long enough for the queue to move. */
const RETRY_AFTER_SECONDS = 5;

export class JobPool {
  private readonly script = compiledWorker(__dirname, 'jobs', 'job-worker.js');
  private readonly slots: (Slot | undefined)[] = [];
  private readonly queue: Queued[] = [];
  private readonly running = new Map<string, number>();
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    /** The service's own store: jobs run on it where no worker script exists. */
    private readonly store: Store,
    private readonly size = Math.max(1, Math.min(2, availableParallelism())),
    private readonly perOwner = Math.max(1, size - 1),
    private readonly maxQueued = 64,
    /** Waiting jobs of one user: below `maxQueued`, so one user can never fill the queue and refuse everyone else. */
    private readonly maxQueuedPerOwner = 16,
  ) {}

  run<K extends JobKind>(kind: K, input: JobInput<K>, options: JobOptions): Promise<JobOutput<K>> {
    if (this.closed) return Promise.reject(new Error('job pool closed'));
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(
        new TooBusy('The workstation is busy with other exports and validations: try again in a few seconds.', RETRY_AFTER_SECONDS),
      );
    }
    if (this.queue.filter((job) => job.options.owner === options.owner).length >= this.maxQueuedPerOwner) {
      return Promise.reject(
        new TooBusy(
          `${this.maxQueuedPerOwner} of your exports and validations are already waiting: try again when they are done.`,
          RETRY_AFTER_SECONDS,
        ),
      );
    }
    return new Promise<JobOutput<K>>((resolve, reject) => {
      this.queue.push({ id: (this.nextId += 1), kind, input, options, resolve: resolve as (result: unknown) => void, reject });
      this.dispatch();
    });
  }

  close(): void {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('job pool closed'));
    for (const slot of this.slots) {
      clearTimeout(slot?.idle);
      slot?.job?.reject(new Error('job pool closed'));
      void slot?.worker.terminate();
    }
    this.slots.length = 0;
  }

  /** The first waiting job whose owner is under its share, to the first free worker. */
  private dispatch(): void {
    for (let index = 0; index < this.size && !this.closed; index += 1) {
      if (this.slots[index]?.job) continue;
      const at = this.queue.findIndex((job) => (this.running.get(job.options.owner) ?? 0) < this.perOwner);
      if (at < 0) return;
      const [job] = this.queue.splice(at, 1);
      this.running.set(job.options.owner, (this.running.get(job.options.owner) ?? 0) + 1);
      if (!this.script) {
        void this.runHere(job);
        continue;
      }
      const slot = (this.slots[index] ??= this.start(index));
      clearTimeout(slot.idle);
      slot.idle = undefined;
      slot.job = job;
      slot.worker.postMessage({ type: 'run', id: job.id, kind: job.kind, input: job.input } satisfies ToWorker);
    }
  }

  private settle(job: Queued): void {
    const count = (this.running.get(job.options.owner) ?? 1) - 1;
    if (count > 0) this.running.set(job.options.owner, count);
    else this.running.delete(job.options.owner);
  }

  /** Without a worker script: the same handler on this thread, with a cursor connection of its own. */
  private async runHere(job: Queued): Promise<void> {
    let cursor: Database.Database | undefined;
    try {
      const handler = JOB_HANDLERS[job.kind] as (ctx: Parameters<(typeof JOB_HANDLERS)[JobKind]>[0], input: unknown) => Promise<unknown>;
      const send = async (chunk: unknown): Promise<void> => job.options.onChunk?.(chunk);
      const cursorOf = (): Database.Database => (cursor ??= new Database(this.file, { readonly: true, fileMustExist: true }));
      job.resolve(await handler({ store: this.store, cursor: cursorOf, ownConnection: false, send }, job.input));
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      cursor?.close();
      this.settle(job);
      this.dispatch();
    }
  }

  private start(index: number): Slot {
    if (!this.script) throw new Error('no job worker script');
    // A small young generation: a job makes garbage at a steady pace (rows parsed, checked,
    // written), and V8's default nursery for it held about 60 MB more of the service's memory
    // at each bench job's peak, for no speed measured. 16 MB rather than 8: a staged workbook's
    // full validation spent 15% of its time collecting at 8 (a plan of 100,000 rows: about 20,000
    // -> 24,000 rows/s at 16, for no more peak memory measured).
    const worker = new Worker(this.script, {
      workerData: { file: this.file },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // An idle worker must not keep a finished process (a test, the CLI) alive.
    worker.unref();
    const slot: Slot = { worker };
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    const fail = (error: Error): void => {
      const job = slot.job;
      slot.job = undefined;
      if (this.slots[index] === slot) this.slots[index] = undefined;
      if (job) {
        this.settle(job);
        job.reject(error);
      }
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`job worker stopped (${code})`)));
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.type === 'chunk') {
      try {
        if (!job.chunkError) job.options.onChunk?.(message.chunk);
      } catch (error) {
        job.chunkError = error instanceof Error ? error : new Error(String(error));
      } finally {
        slot.worker.postMessage({ type: 'ack', id: job.id } satisfies ToWorker);
      }
      return;
    }
    slot.job = undefined;
    this.settle(job);
    if (job.chunkError) job.reject(job.chunkError);
    else if (message.type === 'done') job.resolve(message.result);
    else job.reject(errorOf(message));
    // A worker whose heap a big job swelled past what a full collection gives back (heap-trim.ts)
    // goes now rather than carrying it into the next job: the load that follows a validation had
    // both at its peak. A fresh one starts for whatever comes next (about 100 ms).
    const swollen = message.heapBytes > SWOLLEN_HEAP_BYTES;
    if (swollen) this.retire(slot);
    this.dispatch();
    if (!swollen && !slot.job) this.retireWhenIdle(slot);
    this.keepWarm();
  }

  /** The warm slot holds a worker, started now if a job took the last one away. */
  private keepWarm(): void {
    if (this.closed || !this.script || this.slots[WARM_SLOT]) return;
    this.slots[WARM_SLOT] = this.start(WARM_SLOT);
  }

  private retire(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots[index] = undefined;
    clearTimeout(slot.idle);
    void slot.worker.terminate();
  }

  private retireWhenIdle(slot: Slot): void {
    clearTimeout(slot.idle);
    if (this.slots[WARM_SLOT] === slot) return;
    slot.idle = setTimeout(() => {
      if (slot.job || !this.slots.includes(slot)) return;
      this.retire(slot);
    }, IDLE_WORKER_MS);
    slot.idle.unref();
  }
}
