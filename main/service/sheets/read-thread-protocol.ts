import type { SerializedFault } from '../jobs/job-protocol';
import type { StagedReadInput } from '../workbooks/staged-row-reader';
import type { ReadOptions } from './read-workbook';
import type { PrecheckInput } from './row-prechecker';

/**
 * Messages between a thread that consumes a workbook's events and the reader thread that
 * parses it (read-thread.ts). Events travel in batches, and the reader stays at most a few
 * batches ahead, so memory stays bounded whatever the size of the file. The consumer counts the
 * batches it took in shared memory (`taken`), not in messages: a message back per batch cost
 * the consumer 2 ms each.
 */
export interface ReadThreadInput {
  path: string;
  fileName: string;
  options: ReadOptions;
  /** One Int32: batches the consumer has taken. */
  taken: SharedArrayBuffer;
  /** For a validation: added rows are prechecked on the reader thread (row-prechecker.ts). */
  precheck?: PrecheckInput;
}

/**
 * What the consumer sends: a workbook file to read, or a staged workbook's rows to page through
 * (workbooks/staged-row-reader.ts). A reader thread reads one at a time and then waits for the
 * next, so a consumer that reads workbook after workbook (a warm job worker's validations)
 * starts each in a few ms instead of booting a thread (read-thread.ts).
 */
export type ToReader = { type: 'read'; input: ReadThreadInput } | { type: 'staged'; input: StagedReadInput };

export type FromReader =
  /**
   * A batch: a file's SheetEvent[] as JSON, cheaper for the consumer to parse than a cloned
   * message (a file's row whose columns are those of the row before it, nearly every row, comes
   * without them); a staged workbook's StagedBatch as it is, its rows' cells and stored outcomes
   * being strings, which cost little to clone.
   */
  { type: 'events'; batch: unknown } | { type: 'end' } | { type: 'fail'; fault?: SerializedFault; message: string };

/** Events per message: large enough that posting costs little per row, small enough to start at once. */
export const EVENTS_PER_BATCH = 256;

/** Batches the reader may post beyond those taken. */
export const BATCHES_AHEAD = 8;
