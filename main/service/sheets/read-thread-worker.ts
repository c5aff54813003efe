import { parentPort, workerData } from 'node:worker_threads';
import { failureOf } from '../jobs/job-protocol';
import { streamWorkbook, type SheetEvent } from './read-workbook';
import { BATCHES_AHEAD, EVENTS_PER_BATCH, type FromReader, type ReadThreadInput } from './read-thread-protocol';

/**
 * The reader thread: parses one workbook with streamWorkbook() and posts its events in
 * batches, never more than BATCHES_AHEAD beyond those the consumer took, then ends or fails.
 */
const input = workerData as ReadThreadInput;
const taken = new Int32Array(input.taken);
let posted = 0;

const post = (message: FromReader): void => parentPort?.postMessage(message);

// A pending Atomics.waitAsync does not keep a thread alive; a listener on the port does, until
// the consumer terminates the thread.
parentPort?.on('message', () => undefined);

async function flush(events: SheetEvent[]): Promise<void> {
  post({ type: 'events', json: JSON.stringify(events) });
  posted += 1;
  for (let seen = Atomics.load(taken, 0); posted - seen >= BATCHES_AHEAD; seen = Atomics.load(taken, 0)) {
    await Atomics.waitAsync(taken, 0, seen).value;
  }
}

async function read(): Promise<void> {
  let batch: SheetEvent[] = [];
  try {
    for await (const event of streamWorkbook(input.path, input.fileName, input.options)) {
      batch.push(event);
      if (batch.length >= EVENTS_PER_BATCH) {
        await flush(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await flush(batch);
    post({ type: 'end' });
  } catch (error) {
    post({ type: 'fail', ...failureOf(error) });
  }
}

void read();
