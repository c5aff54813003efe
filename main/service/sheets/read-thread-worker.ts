import { parentPort } from 'node:worker_threads';
import { failureOf } from '../jobs/job-protocol';
import { streamWorkbookBatches, type SheetEvent } from './read-workbook';
import type { ParsedRow } from './sheet-types';
import { BATCHES_AHEAD, EVENTS_PER_BATCH, type FromReader, type ReadThreadInput, type ToReader } from './read-thread-protocol';
import { RowPrechecker } from './row-prechecker';
import { sendStagedRows, type StagedReadInput } from '../workbooks/staged-row-reader';

/**
 * The reader thread: parses a workbook with streamWorkbookBatches() and posts its events in
 * batches, never more than BATCHES_AHEAD beyond those the consumer took, then ends or fails, and
 * waits for the next workbook. For a validation it also prechecks added rows
 * (row-prechecker.ts) while the validator works.
 */
const post = (message: FromReader): void => parentPort?.postMessage(message);

/** The workbook being read: batches posted, and the consumer's count of those it took. */
let posted = 0;
let taken: Int32Array<ArrayBufferLike> = new Int32Array(1);

/** The columns of the last row sent: a row with the same ones goes without (read-thread-protocol.ts). */
let lastColumns: Record<string, string> | undefined;

function withoutRepeatedColumns(events: SheetEvent[]): SheetEvent[] {
  for (const event of events) {
    if (event.type !== 'row') continue;
    const { columns } = event.row;
    if (lastColumns && sameColumns(columns, lastColumns)) (event.row as Partial<ParsedRow>).columns = undefined;
    else lastColumns = columns;
  }
  return events;
}

function sameColumns(a: Record<string, string>, b: Record<string, string>): boolean {
  let count = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    count += 1;
  }
  return count === Object.keys(b).length;
}

/** Posts a batch, then waits while the consumer is BATCHES_AHEAD behind. */
async function send(batch: unknown): Promise<void> {
  post({ type: 'events', batch });
  posted += 1;
  for (let seen = Atomics.load(taken, 0); posted - seen >= BATCHES_AHEAD; seen = Atomics.load(taken, 0)) {
    await Atomics.waitAsync(taken, 0, seen).value;
  }
}

/**
 * A precheck costs this thread about three times what it saves the validator (the row's whole
 * data then crosses as JSON), so rows are prechecked only while the validator has batches
 * waiting: then this thread has time to spare. The two threads settle where both are busy
 * (measured on a 100,000-row validation: 2.0 s with no prechecks, 2.1 s with all of them,
 * 1.6 s this way).
 */
const PRECHECK_WHEN_WAITING = 2;
const validatorBehind = (): boolean => posted - Atomics.load(taken, 0) >= PRECHECK_WHEN_WAITING;

/** A new stream: nothing posted yet, and the consumer's count of batches taken. */
function begin(shared: SharedArrayBuffer): void {
  posted = 0;
  taken = new Int32Array(shared);
  lastColumns = undefined;
}

/** Without a usable workspace file the rows simply go unprechecked: the validator does it all. */
function openPrechecker(input: ReadThreadInput): RowPrechecker | undefined {
  if (!input.precheck) return undefined;
  try {
    return new RowPrechecker(input.precheck);
  } catch {
    return undefined;
  }
}

async function read(input: ReadThreadInput): Promise<void> {
  begin(input.taken);
  let batch: SheetEvent[] = [];
  const prechecker = openPrechecker(input);
  try {
    for await (const events of streamWorkbookBatches(input.path, input.fileName, input.options)) {
      for (const event of events) {
        if (prechecker && event.type === 'sheet') prechecker.enterSheet(event.sheet);
        if (prechecker && event.type === 'row' && validatorBehind()) event.pre = prechecker.check(event.row);
        batch.push(event);
        if (batch.length >= EVENTS_PER_BATCH) {
          await send(JSON.stringify(withoutRepeatedColumns(batch)));
          batch = [];
        }
      }
    }
    if (batch.length > 0) await send(JSON.stringify(withoutRepeatedColumns(batch)));
    post({ type: 'end' });
  } catch (error) {
    post({ type: 'fail', ...failureOf(error) });
  } finally {
    prechecker?.close();
  }
}

/** A staged workbook's rows, prechecked while the validator is behind (workbooks/staged-row-reader.ts). */
async function readStaged(input: StagedReadInput): Promise<void> {
  begin(input.taken);
  try {
    await sendStagedRows(input, { send, behind: validatorBehind });
    post({ type: 'end' });
  } catch (error) {
    post({ type: 'fail', ...failureOf(error) });
  }
}

/** Workbooks are read one after the other: the consumer sends the next only after the last one ended. */
let reading = Promise.resolve();
parentPort?.on('message', (message: ToReader) => {
  if (message.type === 'read') reading = reading.then(() => read(message.input));
  if (message.type === 'staged') reading = reading.then(() => readStaged(message.input));
});
