import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { errorOf } from '../jobs/job-protocol';
import { compiledWorker } from '../worker-script';
import { streamWorkbookBatches, type ReadOptions, type SheetEvent } from './read-workbook';
import type { FromReader, ToReader } from './read-thread-protocol';
import type { PrecheckInput } from './row-prechecker';

/**
 * A workbook's events parsed on a thread of their own, in batches, so that reading a big file
 * (inflating and scanning its XML and making the rows' events, about 3 µs a row) runs beside
 * what the caller does with each row (a validation's checks) instead of before it: on two cores
 * the slower of the two sets the pace, not their sum. Small files are read on the calling
 * thread: a thread costs about 100 ms to start.
 */
const THREAD_FROM_BYTES = 512 * 1024;

/**
 * The reader thread of the last workbook, kept for the next one: booting a thread (and loading
 * the reader's and the prechecker's modules in it) took 110 ms before each validation's first
 * rows, while the validator waited. Idle, it is unref'd: it never keeps a process alive, and it
 * goes with the thread that owns it (a job worker let go).
 */
let idleReader: Worker | undefined;

const READER_YOUNG_GENERATION_MB = 16;

function takeReader(script: string): Worker {
  // The job workers' nursery (job-pool.ts): V8's default one for a thread held tens of MB more
  // of the process's memory at a big validation's peak; at 8 MB the reader spent three times as
  // long collecting (0.7 s of a 100,000-row plan).
  const reader = idleReader ?? new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB } });
  idleReader = undefined;
  reader.ref();
  return reader;
}

/** A reader that ended its workbook cleanly waits for the next; any other is stopped. */
async function releaseReader(reader: Worker, clean: boolean): Promise<void> {
  if (clean && !idleReader) {
    idleReader = reader;
    reader.unref();
    // An idle reader that dies (out of memory, say) is simply not there for the next workbook.
    reader.once('exit', () => {
      if (idleReader === reader) idleReader = undefined;
    });
    return;
  }
  await reader.terminate();
}

export async function* streamWorkbookAhead(
  path: string,
  fileName: string,
  options: ReadOptions = {},
  precheck?: PrecheckInput,
): AsyncGenerator<SheetEvent[]> {
  if (statSync(path).size < THREAD_FROM_BYTES) {
    yield* streamWorkbookBatches(path, fileName, options);
    return;
  }
  let lastColumns: Record<string, string> = {};
  // Rows sent without their columns have the row before them's (read-thread-worker.ts).
  const withColumns = (events: SheetEvent[]): SheetEvent[] => {
    for (const event of events) {
      if (event.type !== 'row') continue;
      if (event.row.columns === undefined) event.row.columns = lastColumns;
      else lastColumns = event.row.columns;
    }
    return events;
  };
  yield* streamThroughReader(
    (taken) => ({ type: 'read', input: { path, fileName, options, taken, precheck } }),
    (batch) => withColumns(JSON.parse(batch as string) as SheetEvent[]),
    () => streamWorkbookBatches(path, fileName, options),
  );
}

/**
 * Batches a reader thread makes (`request`, given the shared count of batches taken), each
 * decoded here as it came; `here()` makes the same batches on this thread when no reader can run
 * (no compiled script, or a thread that could not start).
 */
export async function* streamThroughReader<T>(
  request: (taken: SharedArrayBuffer) => ToReader,
  decode: (batch: unknown) => T,
  here: () => AsyncGenerator<T> | Generator<T>,
): AsyncGenerator<T> {
  const script = compiledWorker(__dirname, 'sheets', 'read-thread-worker.js');
  if (!script) {
    yield* here();
    return;
  }
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const worker = takeReader(script);
  const inbox: FromReader[] = [];
  let wake: (() => void) | undefined;
  const deliver = (message: FromReader): void => {
    inbox.push(message);
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const failed = (error: Error): void => deliver({ type: 'fail', message: error.stack ?? error.message });
  const exited = (code: number): void => deliver({ type: 'fail', message: `the workbook reader thread stopped (exit code ${code})` });
  worker.on('message', deliver).on('error', failed).on('exit', exited);
  worker.postMessage(request(taken.buffer as SharedArrayBuffer));
  let received = false;
  let ended = false;
  try {
    for (;;) {
      if (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift() as FromReader;
      if (message.type === 'events') {
        received = true;
        Atomics.add(taken, 0, 1);
        Atomics.notify(taken, 0);
        yield decode(message.batch);
      } else if (message.type === 'end') {
        ended = true;
        return;
      } else if (message.fault) {
        throw errorOf(message);
      } else if (!received) {
        // A thread that could not start (a packaged build that cannot load the script, say):
        // the same reading on this thread.
        yield* here();
        return;
      } else {
        throw errorOf(message);
      }
    }
  } finally {
    // Only this stream's listeners go: removeAllListeners() would also drop those by which the
    // Worker starts its message port again for the next 'message' listener.
    worker.off('message', deliver).off('error', failed).off('exit', exited);
    // A consumer that stopped early leaves the reader mid-workbook: that one is stopped.
    await releaseReader(worker, ended);
  }
}
