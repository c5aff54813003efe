import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CompiledSearch } from './search-compiler';
import type { SearchJob, SearchJobResult } from './search-worker';

/**
 * Search workers for one workspace file, started on the first search. Each job goes to the
 * worker with the fewest jobs; a worker that dies is replaced on the next search. Where the
 * compiled worker script is missing (tests running the TypeScript sources without a build),
 * `available` is false and searches run on the calling thread.
 */
interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }>;
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

export class SearchPool {
  private readonly script = workerScript();
  private readonly slots: (Slot | undefined)[] = [];
  private nextId = 0;

  constructor(
    private readonly file: string,
    private readonly size = Math.min(2, availableParallelism()),
  ) {}

  get available(): boolean {
    return this.script !== undefined;
  }

  run(compiled: CompiledSearch): Promise<Uint8Array> {
    const slot = this.leastBusy();
    const id = (this.nextId += 1);
    const job: SearchJob = { id, sql: compiled.sql, params: compiled.params };
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage(job);
    });
  }

  close(): void {
    for (const slot of this.slots) void slot?.worker.terminate();
    this.slots.length = 0;
  }

  private leastBusy(): Slot {
    for (let index = 0; index < this.size; index += 1) if (!this.slots[index]) this.slots[index] = this.start(index);
    return this.slots.reduce((best, slot) => (slot && best && slot.pending.size < best.pending.size ? slot : best)) as Slot;
  }

  private start(index: number): Slot {
    if (!this.script) throw new Error('no search worker script');
    const worker = new Worker(this.script, { workerData: { file: this.file } });
    // Searches in flight must not keep a finished process alive.
    worker.unref();
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (result: SearchJobResult) => {
      const waiting = slot.pending.get(result.id);
      slot.pending.delete(result.id);
      if (!waiting) return;
      if ('error' in result) waiting.reject(new Error(result.error));
      else waiting.resolve(result.bytes);
    });
    const fail = (error: Error): void => {
      for (const waiting of slot.pending.values()) waiting.reject(error);
      slot.pending.clear();
      if (this.slots[index] === slot) this.slots[index] = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`search worker stopped (${code})`)));
    return slot;
  }
}
