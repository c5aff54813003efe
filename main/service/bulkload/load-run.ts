import { performance } from 'node:perf_hooks';
import type { EventEmitter } from 'node:events';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import { configurationTemplate } from '../models/configuration-template';
import { macro } from '../models/macro';
import type { Caller } from '../domain/guards';
import type { ParsedRow, ParsedSheet } from '../sheets/sheet-types';
import { rowsOf, type BulkLoadRow } from '../store/bulk-loads-repo';
import type { TxStatus } from '../store/transactions-repo';
import { ascendingTransactionIds } from '../store/ids';
import type { WalCheckpointer } from '../store/wal-checkpointer';
import { releaseMappedPages } from '../store/db';
import { templateCache } from '../templates/configuration-template';
import {
  GroupRedo,
  inSavepoint,
  recordRowNotRun,
  runRowInBatch,
  type BatchRowDeps,
  type BatchRowOutcome,
  type RowGuard,
} from '../transactions/batch-row';
import { countedDetail, type LoadProgressEvent, type SlicedWork, type TransactionEvent, type TxOutcome } from '../transactions/engine';
import { recordedWithin, rowHead, rowTransaction } from './row-transaction';

/**
 * A bulk load running from its spool, in batches: each batch is one SQLite transaction of
 * as many rows as fit in a slice of about 20 ms (each row atomic within it: a savepoint of its
group's, or its own; see `runGroup`), with the load's
 * count of rows run and the spool entries all of whose rows have run leaving in the same commit.
 * So a row is Success only once its batch has committed, a killed process leaves each row
 * loaded whole or not at all, and the rows it had not reached are those of the spool from the
 * committed count on. Between batches the engine yields, so the service keeps answering and
 * other writes are not held for the whole load.
 */
// Longer slices spread each commit's pages over more rows (measured: 15 -> 30 ms, 3% faster)
// but hold the event loop longer, and a request that arrives as a slice starts waits for all
// of it: at 20 ms, a client polling the parent every 200 ms (the spec's advice) waited up to
// 36 ms a poll, beside other requests at a p99 of 35 to 54 ms. At 8 ms, polls took 7 ms at the
// median and 17 at worst (issue 30's bench: under 20), other requests 15 ms at p99.
const SLICE_MS = 8;
/**
 * How often a running load lets go of the workspace pages its connection has mapped (store/db.ts):
 * a load's inserts touch index pages all over the file, and every page touched stays counted in
 * the process's memory while mapped (measured: 685 MB of a 947 MB peak in a process that had run
 * three such loads). Let go of every 2 s, 555 MB of the file were mapped at the peak; every 1 s,
 * 157 MB; every 250 ms, 104 MB, at the same load rate (5,620 rows/s in each of those runs). A
 * release takes 0.3 to 9 ms, inside a slice; mapping again costs the faults of the pages read next.
 */
const RELEASE_PAGES_EVERY_MS = 250;
/**
 * Rows share one savepoint in groups of up to this many (batch-row.ts): a group whose row fails
 * after writing runs again row by row, and the next groups start smaller, so a load with many
 * such rows pays for few redos; each clean group lets the next grow again.
 */
const GROUP_MAX = 256;
const TEMPLATE_MODELS = new Set([configurationTemplate.modelType, macro.modelType]);

/** A spooled row with its load-order number. */
type QueuedRow = ReturnType<typeof rowsOf>[number];
/**
 * A row taken for a group, with the spool entry it finishes (its last row), if it does, and its
 * transaction id (the same if its group runs again).
 */
interface GroupedRow {
  queued: QueuedRow;
  endsEntry?: number;
  transactionId: string;
}

/** What a caller learns of each row as it runs (a staged workbook writes the outcome back to its row). */
export type RowHook = (row: ParsedRow, outcome: BatchRowOutcome) => void;

export interface LoadRunDeps extends BatchRowDeps {
  store: Store;
  events: EventEmitter;
  checkpoints: WalCheckpointer;
}

export const sheetsOf = (load: BulkLoadRow): ParsedSheet[] => JSON.parse(load.sheets) as ParsedSheet[];

export const loadDetail = (ok: number, total: number, sheets: number, fileName: string): string =>
  `[ ${ok}/${total} ] succeeded from [ ${sheets} ] sheet in ${fileName}`;

export class LoadRun implements SlicedWork {
  readonly finished: Promise<TxOutcome>;
  private resolve: (outcome: TxOutcome) => void = () => undefined;
  private readonly sheets: ParsedSheet[];
  /** The rows of the spool entry being run (read once; an entry may span batches), and the next one's place. */
  private queue: QueuedRow[] = [];
  private queueAt = 0;
  /** The last spool entry read, and the last whose rows have all run (it leaves the spool with its batch). */
  private readEntry = -1;
  private ranEntry = -1;
  private done: number;
  private ok: number;
  private holdingCheckpoints = false;
  /** Templates found in this batch: a template written by a single transaction between batches is seen by the next. */
  private findTemplate = templateCache();
  /** How many rows the next group may take (GROUP_MAX at most; 1 is a savepoint a row). */
  private groupSize = GROUP_MAX;
  /** The rows' transaction ids, random but ascending (store/ids.ts). */
  private readonly rowIds: () => string;
  /** Who asked to cancel: the next step runs no row and ends the load instead. */
  private canceledBy: string | undefined;
  /** When the mapped pages were last let go of (releaseMappedPages). */
  private releasedAt = performance.now();

  constructor(
    private readonly deps: LoadRunDeps,
    private readonly load: BulkLoadRow,
    private readonly caller: Caller,
    private readonly defaultPath: string,
    /** Called for each row inside its batch's transaction: what it writes commits with the row, or not at all. */
    private readonly onRow?: RowHook,
  ) {
    this.sheets = sheetsOf(load);
    this.done = load.done;
    this.ok = load.ok;
    this.rowIds = ascendingTransactionIds(load.total - load.done);
    this.finished = new Promise((resolve) => (this.resolve = resolve));
  }

  waitBeforeStep(): Promise<void> | undefined {
    return this.holdingCheckpoints ? this.deps.checkpoints.lagging() : undefined;
  }

  /**
   * Stops the load after the batch that is running now: its rows stay loaded (they committed
   * with it), the rows after it never run and keep no sub-transaction (a caller that loads
   * again runs them, and only them).
   */
  cancel(username: string): void {
    this.canceledBy ??= username;
  }

  step(): boolean {
    const { db, bulkLoads, transactions } = this.deps.store;
    if (this.canceledBy !== undefined) {
      this.finishCanceled(this.canceledBy);
      return true;
    }
    if (!this.holdingCheckpoints) {
      this.deps.checkpoints.hold();
      this.holdingCheckpoints = true;
    }
    const deadline = performance.now() + SLICE_MS;
    // Within the slice, not after it: unmapping costs up to 8 ms, which a poll would wait for.
    if (deadline - this.releasedAt > RELEASE_PAGES_EVERY_MS) this.releasePages();
    this.findTemplate = templateCache();
    const events: TransactionEvent[] = [];
    const batch = db.transaction(() => {
      let ran = 0;
      while (ran === 0 || performance.now() < deadline) {
        const grouped = this.runGroup(deadline, events);
        if (grouped === 0) break;
        ran += grouped;
      }
      if (ran === 0) return 0;
      bulkLoads.ran(this.load.load_id, this.ranEntry, this.done, this.ok);
      transactions.setDetail(this.load.load_id, this.detail());
      return ran;
    });
    // Each row's savepoint journals the pages it first touches: in memory, not in a temp file
    // (measured: 24 µs a row with the file, 10 in memory). Only for the batch: big sorts of
    // other queries keep spilling to disk.
    db.pragma('temp_store = MEMORY');
    let ran: number;
    try {
      ran = batch();
    } finally {
      db.pragma('temp_store = DEFAULT');
    }
    for (const event of events) this.deps.events.emit('transaction', event);
    if (ran > 0) {
      this.emitProgress();
      return false;
    }
    this.finish();
    return true;
  }

  abort(error: unknown): void {
    this.deps.onInternalError(error, this.load.load_id);
    stopLoad(this.deps, this.load, 'Transaction canceled: the load stopped on an internal error; this row did not run.');
    this.settle('The bulk load stopped on an internal error; the rows before it were kept.');
  }

  /** The next row to run, with the spool entry it finishes, if it is that entry's last. */
  private takeRow(): GroupedRow | undefined {
    const queued = this.nextRow();
    return queued && { queued, endsEntry: this.queueAt >= this.queue.length ? this.readEntry : undefined, transactionId: this.rowIds() };
  }

  /**
   * Rows in one savepoint, as many as the group size allows within half a slice (so that running
   * them again never makes a slice much longer than SLICE_MS). If one fails after writing, the
   * group is rolled back, what it had counted is forgotten, and its rows run again each in its
   * own savepoint. Returns how many rows ran.
   */
  private runGroup(deadline: number, events: TransactionEvent[]): number {
    const taken: GroupedRow[] = [];
    if (this.groupSize > 1) {
      const groupDeadline = Math.min(deadline, performance.now() + SLICE_MS / 2);
      const mark = { done: this.done, ok: this.ok, ranEntry: this.ranEntry, events: events.length };
      try {
        inSavepoint(this.deps.db)(() => {
          while (taken.length < this.groupSize && (taken.length === 0 || performance.now() < groupDeadline)) {
            const row = this.takeRow();
            if (!row) break;
            taken.push(row);
            this.runGrouped(row, events, 'group-savepoint');
          }
        });
        this.groupSize = Math.min(GROUP_MAX, this.groupSize * 2);
        return taken.length;
      } catch (error) {
        if (!(error instanceof GroupRedo)) throw error;
        this.done = mark.done;
        this.ok = mark.ok;
        this.ranEntry = mark.ranEntry;
        events.length = mark.events;
        // What the rolled-back rows may have cached (a node, a template) is gone with them.
        this.deps.store.nodes.clearCache();
        this.findTemplate = templateCache();
        this.groupSize = Math.max(1, Math.floor(this.groupSize / 4));
      }
    } else {
      const row = this.takeRow();
      if (row) taken.push(row);
    }
    for (const row of taken) this.runGrouped(row, events, 'own-savepoint');
    return taken.length;
  }

  private runGrouped(grouped: GroupedRow, events: TransactionEvent[], guard: RowGuard): void {
    const outcome = this.runRow(this.sheets[grouped.queued.sheet], grouped.queued.row, guard, grouped.transactionId);
    this.onRow?.(grouped.queued.row, outcome);
    events.push(outcome.event);
    if (grouped.endsEntry !== undefined) this.ranEntry = grouped.endsEntry;
  }

  /** The next row to run: from the entry being run, else from the next spool entry. */
  private nextRow(): QueuedRow | undefined {
    while (this.queueAt >= this.queue.length) {
      const [entry] = this.deps.store.bulkLoads.next(this.load.load_id, this.readEntry, 1);
      if (!entry) return undefined;
      this.readEntry = entry.seq;
      // Rows before `done` ran already (a load that starts again part-way through an entry).
      this.queue = rowsOf(entry).filter((queued) => queued.seq >= this.done);
      this.queueAt = 0;
      if (this.queue.length === 0) this.ranEntry = entry.seq;
    }
    const row = this.queue[this.queueAt];
    this.queueAt += 1;
    return row;
  }

  private runRow(sheet: ParsedSheet, row: ParsedRow, guard: RowGuard, transactionId: string): ReturnType<typeof runRowInBatch> {
    const spec = rowTransaction({
      store: this.deps.store,
      caller: this.caller,
      sheet,
      row,
      defaultPath: this.defaultPath,
      findTemplate: this.findTemplate,
    });
    const outcome = runRowInBatch(this.deps, this.load.load_id, spec, guard, transactionId);
    // A row that writes a template or a macro changes what the next rows' templates make.
    if (TEMPLATE_MODELS.has(sheet.modelType)) this.findTemplate = templateCache();
    this.done += 1;
    if (outcome.status === 'Success') this.ok += 1;
    // A row rolled back to its savepoint may have cached a node it had created.
    else this.deps.store.nodes.clearCache();
    return outcome;
  }

  private detail(): string {
    return loadDetail(this.ok, this.load.total, this.sheets.length, this.load.file_name);
  }

  private emitProgress(): void {
    const event: LoadProgressEvent = {
      transaction_id: this.load.load_id,
      done: this.done,
      succeeded: this.ok,
      failed: this.done - this.ok,
      total: this.load.total,
      detail: this.detail(),
    };
    this.deps.events.emit('progress', event);
  }

  private releaseCheckpoints(): void {
    if (this.holdingCheckpoints) this.deps.checkpoints.release();
    this.holdingCheckpoints = false;
  }

  private finish(): void {
    const failed = this.done - this.ok;
    const status: TxStatus = failed === 0 ? 'Success' : this.ok === 0 ? 'Fail' : 'Success With Async Failures';
    const message = failed === 0 ? `${this.done} of ${this.done} succeeded` : `${failed} of ${this.done} failed`;
    this.end(status, message, failed === 0 ? undefined : new ApiError(409, 'sub-transactions-failed', message));
  }

  /** The parent ends with what ran; the spool goes, so the rows it held never run under this load. */
  private finishCanceled(username: string): void {
    const failed = this.done - this.ok;
    const status: TxStatus = this.ok === 0 ? 'Fail' : 'Success With Async Failures';
    const message = `Canceled by ${username}: ${this.done} of ${this.load.total} rows ran (${failed} failed); the other ${this.load.total - this.done} did not run.`;
    this.end(status, message, new ApiError(409, 'load-canceled', message), true);
  }

  private releasePages(): void {
    releaseMappedPages(this.deps.store.db);
    this.releasedAt = performance.now();
  }

  /** The parent transaction finished with `status` (its message also logged when `logged`), the spool gone, the waiters told. */
  private end(status: TxStatus, message: string, error: ApiError | undefined, logged = false): void {
    this.releaseCheckpoints();
    this.releasePages();
    this.deps.db.transaction(() => {
      if (logged) this.deps.repo.log(this.load.load_id, 'info', this.deps.now(), message);
      this.deps.repo.finish(this.load.load_id, {
        status,
        rolled_back: 'No',
        message,
        resource_pkid: null,
        current_state: '',
        completed_time: this.deps.now(),
        detail: this.detail(),
      });
      this.deps.store.bulkLoads.remove(this.load.load_id);
    })();
    this.emitProgress();
    this.deps.events.emit('transaction', {
      transaction_id: this.load.load_id,
      status,
      parent_id: null,
      model_type: 'tool/BulkLoad',
      resource_pkid: null,
    });
    this.resolve({ transactionId: this.load.load_id, status, resourcePkid: null, error });
  }

  /** Ends the parent from its sub-transactions, as recovery does after a crash. */
  private settle(message: string): void {
    this.releaseCheckpoints();
    const children = this.deps.repo.children(this.load.load_id);
    const ok = children.filter((child) => child.status === 'Success').length;
    this.deps.repo.log(this.load.load_id, 'error', this.deps.now(), message);
    this.deps.repo.finish(this.load.load_id, {
      status: 'Fail',
      rolled_back: 'No',
      message,
      resource_pkid: null,
      current_state: '',
      completed_time: this.deps.now(),
      detail: countedDetail(this.detail(), ok, children.length),
    });
    this.deps.events.emit('transaction', {
      transaction_id: this.load.load_id,
      status: 'Fail',
      parent_id: null,
      model_type: 'tool/BulkLoad',
      resource_pkid: null,
    });
    this.resolve({
      transactionId: this.load.load_id,
      status: 'Fail',
      resourcePkid: null,
      error: new ApiError(500, 'internal-error', message),
    });
  }
}

/**
 * Every row of a load that has not run becomes a failed sub-transaction that says why, and the
 * load leaves the spool: after a crash (at the next start) or an internal error. What ran is
 * what the store says: the count committed with the last batch (a batch cut by an internal
 * error was rolled back whole), so the rows of a partly run entry before it are skipped.
 */
export function stopLoad(deps: BatchRowDeps & { store: Store }, load: BulkLoadRow, message: string): number {
  const sheets = sheetsOf(load);
  const defaultPath = deps.store.nodes.get(load.hierarchy_pkid)?.path ?? '';
  const { bulkLoads } = deps.store;
  let stopped = 0;
  deps.db.transaction(() => {
    const done = bulkLoads.get(load.load_id)?.done ?? load.done;
    for (
      let entries = bulkLoads.next(load.load_id, -1, 10), after = -1;
      entries.length > 0;
      entries = bulkLoads.next(load.load_id, after, 10)
    ) {
      for (const entry of entries) {
        for (const queued of rowsOf(entry)) {
          if (queued.seq < done) continue;
          // Never run, so recorded within the load's own node: the caller's reach is not kept.
          const head = recordedWithin(
            deps.store,
            rowHead(deps.store, load.username, sheets[queued.sheet], queued.row, defaultPath),
            defaultPath,
            defaultPath,
          );
          recordRowNotRun(deps, load.load_id, head, message);
          stopped += 1;
        }
        after = entry.seq;
      }
    }
    bulkLoads.remove(load.load_id);
  })();
  return stopped;
}
