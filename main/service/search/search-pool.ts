import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompiledSearch } from './search-compiler';
import type { SearchJob, SearchJobResult } from './search-worker';

/**
 * A search's answer statement, and for a single model its narrow alternative with the probe
 * that tells which to run (list/scope-plan.ts); the worker chooses, on its own connection.
 */
export interface SearchStatements {
  answer: CompiledSearch;
  narrow?: { answer: CompiledSearch; probe: CompiledSearch };
}

/**
 * How many searches a worker holds: the one it runs and the next, so that it never waits for
 * the main thread between two searches (that round trip cost a tenth of the throughput).
 */
const HANDED_AHEAD = 2;

interface Waiting {
  job: SearchJob;
  resolve: (bytes: Uint8Array) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The searches handed to this worker, in the order it runs them. */
  running: Waiting[];
}

/** The compiled worker beside this file, or, from the TypeScript sources, in dist/. */
function workerScript(): string | undefined {
  // Worker threads cannot load scripts from inside an asar archive; packaged builds unpack the
  // worker (electron-builder.yml asarUnpack) and it is started from the unpacked copy.
  const here = join(__dirname, 'search-worker.js').replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  if (existsSync(here)) return here;
  const built = join(__dirname, '..', '..', '..', 'dist', 'main', 'service', 'search', 'search-worker.js');
  return existsSync(built) ? built : undefined;
}

/**
 * Search workers for one workspace file, started on the first search; a worker that dies is
 * replaced when the next search is handed out. Where the compiled worker script is missing
 * (tests running the TypeScript sources without a build), `available` is false and searches
 * run on the calling thread.
 *
 * Searches wait in one queue, first come first served, and go to the workers as they free up.
 * Why not a queue per worker: a search is given to a worker before anyone knows how long the
 * searches ahead of it will take, so under load a search could wait behind a slow one while
 * the other worker sat idle. One queue cut the bench's p99 under 8 clients by about a tenth.
 */
export class SearchPool {
  private readonly script = workerScript();
  private readonly slots: (Slot | undefined)[] = [];
  private readonly queue: Waiting[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly size = Math.min(2, availableParallelism()),
  ) {}

  get available(): boolean {
    return this.script !== undefined;
  }

  run(statements: SearchStatements): Promise<Uint8Array> {
    const id = (this.nextId += 1);
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error('search pool closed'));
        return;
      }
      this.queue.push({ job: { id, ...statements }, resolve, reject });
      this.dispatch();
    });
  }

  close(): void {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('search pool closed'));
    for (const slot of this.slots) void slot?.worker.terminate();
    this.slots.length = 0;
  }

  /**
   * Hands queued searches out: first one to each worker with none, then a second to each, so
   * two searches arriving together never queue on one worker while the other is idle.
   */
  private dispatch(): void {
    if (this.closed) return;
    for (let held = 1; held <= HANDED_AHEAD; held += 1) {
      for (let index = 0; index < this.size && this.queue.length > 0; index += 1) {
        const slot = (this.slots[index] ??= this.start(index));
        if (slot.running.length >= held) continue;
        const next = this.queue.shift() as Waiting;
        slot.running.push(next);
        slot.worker.postMessage(next.job);
      }
    }
  }

  private start(index: number): Slot {
    if (!this.script) throw new Error('no search worker script');
    const worker = new Worker(this.script, { workerData: { file: this.file } });
    // Searches in flight must not keep a finished process alive.
    worker.unref();
    const slot: Slot = { worker, running: [] };
    worker.on('message', (result: SearchJobResult) => {
      const running = slot.running[0];
      if (running?.job.id !== result.id) return;
      slot.running.shift();
      if ('error' in result) running.reject(new Error(result.error));
      else running.resolve(result.bytes);
      this.dispatch();
    });
    const fail = (error: Error): void => {
      // Only the searches handed to this worker fail; the queued ones go to the next worker.
      for (const running of slot.running.splice(0)) running.reject(error);
      if (this.slots[index] === slot) this.slots[index] = undefined;
      this.dispatch();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`search worker stopped (${code})`)));
    return slot;
  }
}
