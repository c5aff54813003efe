import { EventEmitter } from 'node:events';
import type { TransactionEvent as WireTransactionEvent } from '../contract/service-events';
import { ApiError } from '../errors';
import type { Db } from '../store/db';
import { newTransactionId } from '../store/ids';
import type { TransactionsRepo, TxRow, TxStatus } from '../store/transactions-repo';
import { StepContext } from './step-context';

export interface TxResult {
  resourcePkid: string | null;
  /** The word after the resource path in `current_state`: Created, Modified, Deleted... */
  state: string;
}

export interface TxSpec {
  username: string;
  action: string;
  detail: string;
  modelType: string;
  hierarchyPkid: string | null;
  hierarchyPath: string;
  resourcePkid: string | null;
  /** Synchronous work run inside one SQLite transaction: all of it is stored, or none. */
  run: (ctx: StepContext) => TxResult;
}

export interface TxOutcome {
  transactionId: string;
  status: TxStatus;
  resourcePkid: string | null;
  error?: ApiError;
}

export interface Submitted {
  transactionId: string;
  done: Promise<TxOutcome>;
}

interface Job {
  transactionId: string;
  spec: TxSpec;
  resolve: (outcome: TxOutcome) => void;
}

/**
 * Long work that writes in slices (a bulk load's batches of rows): `step()` runs one slice of
 * at most a few tens of milliseconds in its own SQLite transaction and says whether the work is
 * finished. Between slices the engine yields to the event loop and runs the single transactions
 * queued meanwhile, so a load never holds the service or other writers for long.
 */
export interface SlicedWork {
  step(): boolean;
  /**
   * A promise when the work must not step yet (a load waiting for the log to be copied back
   * into the file): meanwhile the engine runs other transactions, and steps again once it settles.
   */
  waitBeforeStep?(): Promise<void> | undefined;
  /** The slice threw: the work must settle itself (its transaction was rolled back). */
  abort(error: unknown): void;
}

/** The wire event (contract/service-events.ts), with the engine's own status type. */
export interface TransactionEvent extends WireTransactionEvent {
  status: TxStatus;
}

export type { LoadProgressEvent } from '../contract/service-events';

export const INTERNAL = new ApiError(500, 'internal-error', 'The transaction failed on an internal error.');

/**
 * Runs every change as a persisted transaction, one at a time (SQLite has one writer), in the
 * order submitted: Queued, In Progress, then Success or Fail. Between two transactions the
 * queue yields to the event loop so reads keep being answered.
 */
export class TransactionEngine {
  readonly events = new EventEmitter();
  private readonly queue = new JobQueue<Job>();
  private readonly sliced: SlicedWork[] = [];
  private draining = false;
  private closed = false;
  /** The first sliced work asked to wait (waitBeforeStep); single transactions still run. */
  private slicedWaiting = false;

  constructor(
    private readonly db: Db,
    private readonly repo: TransactionsRepo,
    private readonly now: () => string,
    private readonly onInternalError: (error: unknown, transactionId: string) => void,
    /** Called after every commit or rollback: in-memory caches drop what may have changed. */
    private readonly afterTransaction: () => void = () => undefined,
  ) {}

  submit(spec: TxSpec, parentId: string | null = null): Submitted {
    const transactionId = newTransactionId();
    this.repo.insert({
      transaction_id: transactionId,
      parent_id: parentId,
      status: 'Queued',
      action: spec.action,
      detail: spec.detail,
      username: spec.username,
      model_type: spec.modelType,
      hierarchy_pkid: spec.hierarchyPkid,
      hierarchy_path: spec.hierarchyPath,
      resource_pkid: spec.resourcePkid,
      current_state: '',
      submitted_time: this.now(),
    });
    this.emit(transactionId, 'Queued', parentId, spec.modelType, spec.resourcePkid);
    const done = new Promise<TxOutcome>((resolve) => this.queue.push({ transactionId, spec, resolve }));
    this.scheduleDrain();
    return { transactionId, done };
  }

  /**
   * Queues sliced work. Single transactions go first: one queued while a load runs waits for
   * the current slice only. Sliced works run one after the other, in the order submitted.
   */
  submitSliced(work: SlicedWork): void {
    this.sliced.push(work);
    this.scheduleDrain();
  }

  /**
   * A parent with one sub-transaction per child: the parent is Processing while they run; a
   * failed child does not undo the others. The parent ends Success when every child succeeded.
   */
  submitGroup(parent: Omit<TxSpec, 'run'>, children: TxSpec[], partialStatus: TxStatus = 'Fail'): Submitted {
    const transactionId = newTransactionId();
    // One commit for the parent and every child's Queued row: a 20,000-row load must not make
    // 20,000 separate commits before its first row runs.
    const submitted = this.db.transaction(() => {
      this.insertParent(transactionId, parent, 'Processing');
      this.repo.start(transactionId, 'Processing', this.now());
      return children.map((child) => this.submit(child, transactionId).done);
    })();
    this.emit(transactionId, 'Processing', null, parent.modelType, null);
    const done = Promise.all(submitted).then((outcomes) => this.finishGroup(transactionId, parent, outcomes, partialStatus));
    return { transactionId, done };
  }

  /**
   * A group parent under an id chosen beforehand (a bulk load's, whose rows were spooled under
   * it), Queued (scheduled) or already Processing; its children come from sliced work.
   */
  openGroup(transactionId: string, parent: Omit<TxSpec, 'run'>, status: 'Queued' | 'Processing'): void {
    this.insertParent(transactionId, parent, status);
    if (status === 'Processing') this.repo.start(transactionId, 'Processing', this.now());
  }

  /** A Queued parent (a scheduled load) starts: Processing from now on. */
  startWaitingParent(transactionId: string): void {
    this.repo.start(transactionId, 'Processing', this.now());
  }

  /** Announces a parent opened with openGroup, once its commit is done. */
  announceGroup(transactionId: string, status: TxStatus, modelType: string): void {
    this.emit(transactionId, status, null, modelType, null);
  }

  /** Ends a waiting parent that can no longer run (its file or its user is gone). */
  failWaitingGroup(transactionId: string, message: string): void {
    this.db.transaction(() => {
      this.repo.log(transactionId, 'error', this.now(), message);
      this.repo.finish(transactionId, {
        status: 'Fail',
        rolled_back: 'No',
        message,
        resource_pkid: null,
        current_state: '',
        completed_time: this.now(),
      });
    })();
    this.emit(transactionId, 'Fail', null, 'tool/BulkLoad', null);
  }

  private insertParent(transactionId: string, parent: Omit<TxSpec, 'run'>, status: TxStatus): void {
    this.repo.insert({
      transaction_id: transactionId,
      parent_id: null,
      status,
      action: parent.action,
      detail: parent.detail,
      username: parent.username,
      model_type: parent.modelType,
      hierarchy_pkid: parent.hierarchyPkid,
      hierarchy_path: parent.hierarchyPath,
      resource_pkid: parent.resourcePkid,
      current_state: '',
      submitted_time: this.now(),
    });
  }

  /**
   * Every child done: Success when all succeeded, `partialStatus` when some did (a bulk load
   * says Success With Async Failures), Fail when none did.
   */
  private finishGroup(transactionId: string, parent: Omit<TxSpec, 'run'>, outcomes: TxOutcome[], partialStatus: TxStatus): TxOutcome {
    const failed = outcomes.filter((outcome) => outcome.status !== 'Success').length;
    const ok = outcomes.length - failed;
    const status: TxStatus = failed === 0 ? 'Success' : ok === 0 ? 'Fail' : partialStatus;
    const message = failed === 0 ? `${outcomes.length} of ${outcomes.length} succeeded` : `${failed} of ${outcomes.length} failed`;
    this.repo.finish(transactionId, {
      status,
      rolled_back: 'No',
      message,
      resource_pkid: parent.resourcePkid,
      current_state: '',
      completed_time: this.now(),
      detail: countedDetail(parent.detail, ok, outcomes.length),
    });
    this.emit(transactionId, status, null, parent.modelType, null);
    const error = failed === 0 ? undefined : new ApiError(409, 'sub-transactions-failed', message);
    return { transactionId, status, resourcePkid: parent.resourcePkid, error };
  }

  /**
   * Settles what a killed process left unfinished. A single transaction stored nothing (its
   * data and its Success commit together), so it is Fail and rolled back. A group parent is then
   * settled from its children: the ones that finished are kept, as when a group ends normally.
   */
  recoverInterrupted(isWaiting: (transactionId: string) => boolean = () => false): number {
    const rows = this.repo.unfinished().filter((row) => !isWaiting(row.transaction_id));
    const recover = this.db.transaction((unfinished: TxRow[]) => {
      for (const row of unfinished.filter((tx) => tx.status !== 'Processing')) {
        const message =
          row.status === 'Queued'
            ? 'Transaction canceled: the service stopped before it started.'
            : 'Transaction canceled: the service stopped while it ran; every step was rolled back.';
        this.repo.log(row.transaction_id, 'error', this.now(), message);
        this.repo.finish(row.transaction_id, {
          status: 'Fail',
          rolled_back: 'Yes',
          message,
          resource_pkid: row.resource_pkid,
          current_state: row.current_state,
          completed_time: this.now(),
        });
      }
      for (const parent of unfinished.filter((tx) => tx.status === 'Processing')) this.settleGroup(parent);
    });
    recover(rows);
    return rows.length;
  }

  private settleGroup(parent: TxRow): void {
    const children = this.repo.children(parent.transaction_id);
    const failed = children.filter((child) => child.status !== 'Success').length;
    const message =
      failed === 0
        ? `${children.length} of ${children.length} succeeded`
        : `${failed} of ${children.length} failed: the service stopped while they ran; the ones that finished were kept.`;
    this.repo.log(parent.transaction_id, failed === 0 ? 'info' : 'error', this.now(), message);
    this.repo.finish(parent.transaction_id, {
      status: failed === 0 ? 'Success' : 'Fail',
      rolled_back: 'No',
      message,
      resource_pkid: parent.resource_pkid,
      current_state: parent.current_state,
      completed_time: this.now(),
      detail: countedDetail(parent.detail, children.length - failed, children.length),
    });
  }

  /** Resolves once everything submitted so far has finished. */
  async idle(): Promise<void> {
    while (this.draining || this.slicedWaiting || this.queue.length > 0 || this.sliced.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 2));
  }

  close(): void {
    this.closed = true;
  }

  private scheduleDrain(): void {
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (!this.closed) {
        const job = this.queue.shift();
        if (job) job.resolve(this.runJob(job));
        else if (this.sliced.length > 0 && !this.slicedWaiting && !this.waitFor(this.sliced[0])) this.runSlice(this.sliced[0]);
        else break;
        // Let pending reads and network I/O through between two transactions.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.draining = false;
    }
  }

  /** True when the work asked to wait: the drain stops, and starts again when the wait is over. */
  private waitFor(work: SlicedWork): boolean {
    const wait = work.waitBeforeStep?.();
    if (!wait) return false;
    this.slicedWaiting = true;
    const resume = (): void => {
      this.slicedWaiting = false;
      this.scheduleDrain();
    };
    wait.then(resume, resume);
    return true;
  }

  private runSlice(work: SlicedWork): void {
    let finished = true;
    try {
      finished = work.step();
    } catch (error) {
      work.abort(error);
    } finally {
      this.afterTransaction();
    }
    if (finished) this.sliced.shift();
  }

  private runJob(job: Job): TxOutcome {
    try {
      return this.runSteps(job);
    } finally {
      this.afterTransaction();
    }
  }

  private runSteps({ transactionId, spec }: Job): TxOutcome {
    const row = this.repo.get(transactionId);
    const parentId = row?.parent_id ?? null;
    this.repo.start(transactionId, 'In Progress', this.now());
    this.emit(transactionId, 'In Progress', parentId, spec.modelType, spec.resourcePkid);
    const ctx = new StepContext(this.now);
    ctx.log('info', `Transaction started: ${spec.action} ${spec.detail}`.trim());
    try {
      const result = this.db.transaction(() => {
        const outcome = spec.run(ctx);
        ctx.log('info', 'Transaction completed successfully.');
        this.writeLogs(transactionId, ctx);
        this.repo.finish(transactionId, {
          status: 'Success',
          rolled_back: 'No',
          message: '',
          resource_pkid: outcome.resourcePkid,
          current_state: currentState(spec.modelType, outcome.resourcePkid, outcome.state),
          completed_time: this.now(),
        });
        return outcome;
      })();
      this.emit(transactionId, 'Success', parentId, spec.modelType, result.resourcePkid);
      return { transactionId, status: 'Success', resourcePkid: result.resourcePkid };
    } catch (thrown) {
      const error = thrown instanceof ApiError ? thrown : INTERNAL;
      if (!(thrown instanceof ApiError)) this.onInternalError(thrown, transactionId);
      ctx.log('error', `Transaction failed: ${error.message} Every step was rolled back.`);
      this.db.transaction(() => {
        this.writeLogs(transactionId, ctx);
        this.repo.finish(transactionId, {
          status: 'Fail',
          rolled_back: 'Yes',
          message: error.message,
          resource_pkid: spec.resourcePkid,
          current_state: currentState(spec.modelType, spec.resourcePkid, 'Unchanged'),
          completed_time: this.now(),
        });
      })();
      this.emit(transactionId, 'Fail', parentId, spec.modelType, spec.resourcePkid);
      return { transactionId, status: 'Fail', resourcePkid: spec.resourcePkid, error };
    }
  }

  private writeLogs(transactionId: string, ctx: StepContext): void {
    for (const entry of ctx.logs) this.repo.log(transactionId, entry.severity, entry.time, entry.message);
    ctx.logs.length = 0;
  }

  private emit(transactionId: string, status: TxStatus, parentId: string | null, modelType: string, resourcePkid: string | null): void {
    const event: TransactionEvent = {
      transaction_id: transactionId,
      status,
      parent_id: parentId,
      model_type: modelType,
      resource_pkid: resourcePkid,
    };
    this.events.emit('transaction', event);
  }
}

/**
 * First in, first out, without Array.shift(): shifting a 100,000-job array copies it each
 * time, which made a big group's cost per job grow with its size.
 */
class JobQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** A group detail that starts `[ <ok>/<total> ]` (a bulk load's) gets its final count. */
export function countedDetail(detail: string, ok: number, total: number): string {
  return detail.replace(/^\[ \d+\/\d+ \]/, `[ ${ok}/${total} ]`);
}

export function currentState(modelType: string, pkid: string | null, word: string): string {
  return pkid ? `/api/${modelType}/${pkid}/ ${word}` : `/api/${modelType}/ ${word}`;
}
