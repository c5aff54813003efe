import type { BulkLoads } from '../bulkload/bulk-loads';
import type { RowHook } from '../bulkload/load-run';
import type { PlanTotals } from '../contract/workbook-api';
import type { ParsedRow } from '../sheets/sheet-types';
import { ApiError } from '../errors';
import type { WorkbookOutcomesChunk } from '../jobs/job-handlers';
import type { WorkbookRecord } from '../store/workbooks-repo';
import type { StagedWorkbooks, WorkbookDeps, Who } from './staged-workbooks';
import type { FullOutcome } from './staged-validator';
import { releaseMappedPages } from '../store/db';
import { applyKeyDiff } from './workbook-key-index';
import { writeOutcomes, writeSheetIssues } from './workbook-results';
import { addToTotals, emptyTotals } from './workbook-plan';
import { spoolWorkbook, type SpoolMode } from './workbook-spool';
import { countsOf } from './workbook-views';
import { restoreBeforeRemap } from './workbook-remap';

/**
 * Plans and loads of staged workbooks, in the same per-workbook order as its edits. A plan is a
 * full validation on a worker that also records what each row will do (workbook-plan.ts). A load
 * spools the rows that have not loaded yet (workbook-spool.ts) and runs them as a bulk load (one
 * parent, a sub-transaction per row); each row's outcome is written to its workbook row in the
 * commit of the row's own batch, so a row's outcome is never lost and a row never loads twice.
 */
export interface LoadRequest {
  revision?: unknown;
  rows?: unknown;
  allow_errors?: unknown;
}

/**
 * What a workbook that reverts a load adds to its plan and load (revert/revert-checks.ts): its
 * rows whose target changed since the load are conflicts, and each row expects its target as
 * the load left it. Injected, so that this folder never imports the one that builds on it.
 */
export interface RevertHooks {
  /** After the plan's validation, before the plan is kept: changes entries (and `totals`) of rows in conflict. */
  checkPlan(record: WorkbookRecord, totals: PlanTotals): Promise<void>;
  /** For a revert workbook, what to set on each row it spools; undefined for any other workbook. */
  rowAdjuster(record: WorkbookRecord): ((row: ParsedRow) => void) | undefined;
  loadStarted(record: WorkbookRecord, loadId: string): void;
}

export class WorkbookRuns {
  constructor(
    private readonly deps: WorkbookDeps & { loads: BulkLoads; reverts?: RevertHooks },
    private readonly books: StagedWorkbooks,
  ) {}

  /** Starts a plan; answers the workbook at once, in state `planning`. */
  plan(who: Who, id: string, revision: unknown): WorkbookRecord {
    const found = this.books.find(who, id);
    this.books.editable(found);
    this.books.checkRevision(found, revision);
    const { store } = this.deps;
    store.workbooks.setState(found.wb, 'planning', null, this.deps.now());
    this.books.emit(found.id);
    const run = this.books.serial(found.wb, async () => {
      // As for a full validation (staged-workbooks.ts): the log is copied back off the service's thread.
      this.deps.checkpoints?.hold();
      try {
        await this.runPlan(found.wb, revision);
      } finally {
        this.deps.checkpoints?.release();
      }
    });
    this.books.track(found.id, run);
    void run.catch((error: unknown) => this.planFailed(found.wb, error));
    return store.workbooks.getByWb(found.wb) as WorkbookRecord;
  }

  private async runPlan(wb: number, revision: unknown): Promise<void> {
    const { store, pool } = this.deps;
    const record = store.workbooks.getByWb(wb) as WorkbookRecord;
    // An edit queued before the plan came first: the plan would be of another revision than asked.
    this.books.checkRevision(record, revision);
    const totals: PlanTotals = emptyTotals();
    const write = store.db.transaction((outcomes: FullOutcome[]) => {
      writeOutcomes(store, wb, outcomes, 'whole');
      for (const outcome of outcomes) {
        if (!outcome.plan) continue;
        store.workbookPlan.put(wb, { row_id: outcome.row_id, ...outcome.plan });
        addToTotals(totals, outcome.plan.action);
      }
    });
    const keysByRow = this.books.keysPending(record);
    const running = pool.run(
      'validate-workbook',
      {
        wb,
        caller: this.books.callerOf(record),
        nodePkid: this.books.nodeOf(record).pkid,
        plan: true,
        keysByRow,
        ...this.books.checkFileOf(record),
      },
      { owner: record.owner, onChunk: (chunk) => write((chunk as WorkbookOutcomesChunk).outcomes) },
    );
    // The last plan goes while the job starts (its thread, its reader): its outcomes come in
    // later turns of this thread, after this. (A 100,000-row plan's clearing and unmapping took
    // 0.2 s before the job was even asked for.) The job reads no plan entry.
    try {
      store.db.transaction(() => {
        store.workbookPlan.clear(wb);
        store.workbooks.setPlanned(wb, null, null);
      })();
      // As a full validation does (staged-workbooks.ts validateWhole): the plan writes every row.
      releaseMappedPages(store.db);
    } catch (error) {
      void running.catch(() => undefined);
      throw error;
    }
    const result = await running;
    if (result.keys) await applyKeyDiff(store, wb, result.keys);
    await this.deps.reverts?.checkPlan(record, totals);
    store.db.transaction(() => {
      writeSheetIssues(store, wb, result.sheets ?? []);
      store.workbooks.setKeysCurrent(wb, true);
      store.workbooks.setValidated(wb, record.revision);
      store.workbooks.setPlanned(wb, record.revision, JSON.stringify(totals));
      store.workbooks.setState(wb, 'planned', null, this.deps.now());
    })();
    releaseMappedPages(store.db);
    this.books.emit(record.id);
  }

  /** A plan that could not run leaves the workbook as its validation left it. */
  private planFailed(wb: number, error: unknown): void {
    const record = this.deps.store.workbooks.getByWb(wb);
    if (!record) return;
    if (!(error instanceof ApiError)) this.deps.onInternalError(error, record.id);
    const counts = countsOf(this.deps.store, wb);
    this.deps.store.workbooks.setState(wb, counts.errors > 0 ? 'draft' : 'validated', null, this.deps.now());
    this.books.emit(record.id);
  }

  /** Spools the rows to run and starts the load; answers its parent transaction and how many rows it runs. */
  async load(who: Who, id: string, request: LoadRequest): Promise<{ transactionId: string; rows: number; record: WorkbookRecord }> {
    // Absent is all; anything else named, null included, must be all or failed.
    const mode = request.rows === undefined ? 'all' : request.rows;
    if (mode !== 'all' && mode !== 'failed') {
      throw new ApiError(400, 'validation-failed', "'rows' must be all or failed.", [{ field: 'rows', message: 'all or failed' }]);
    }
    if (request.allow_errors !== undefined && typeof request.allow_errors !== 'boolean') {
      throw new ApiError(400, 'validation-failed', "'allow_errors' must be true or false.", [
        { field: 'allow_errors', message: 'a boolean' },
      ]);
    }
    const found = this.books.find(who, id);
    this.books.editable(found);
    if (found.profile_pkid !== null) {
      const profile = this.books.placeOf(found).profile ?? 'a remote profile';
      throw new ApiError(
        409,
        'workbook-remote',
        `This workbook is for ${profile}: it is loaded there by sync push, never into the Local store.`,
      );
    }
    return this.books.serial(found.wb, async () => {
      const { store } = this.deps;
      const record = store.workbooks.getByWb(found.wb) as WorkbookRecord;
      this.books.editable(record);
      this.books.checkRevision(record, request.revision);
      const counts = countsOf(store, record.wb);
      if (counts.errors > 0 && request.allow_errors !== true) {
        throw new ApiError(
          409,
          'workbook-has-errors',
          `The workbook has ${counts.errors} error(s) in ${counts.rows_with_errors} row(s): fix them, or load with allow_errors to run those rows too (they fail as the loader says).`,
        );
      }
      const caller = this.books.callerOf(record);
      const node = this.books.nodeOf(record);
      const adjust = this.deps.reverts?.rowAdjuster(record);
      const spooled = await spoolWorkbook(store, record, caller.principal.username, node, mode as SpoolMode, adjust);
      if (spooled.rows === 0) {
        store.db.transaction(() => store.bulkLoads.remove(spooled.load.load_id))();
        throw new ApiError(
          409,
          'nothing-to-load',
          mode === 'failed'
            ? 'No row of this workbook failed or conflicted in its loads: there is nothing to retry (rows: all also runs the rows that never ran).'
            : 'Every row of this workbook has loaded already: there is nothing left to load.',
        );
      }
      store.db.transaction(() => {
        store.workbooks.setLoad(record.wb, spooled.load.load_id, spooled.total);
        store.workbooks.setState(record.wb, 'loading', null, this.deps.now());
        this.deps.reverts?.loadStarted(record, spooled.load.load_id);
      })();
      this.books.emit(record.id);
      const submitted = this.deps.loads.start(caller, spooled.load, node, this.outcomeWriter(record.wb));
      void submitted.done.then(() => this.afterLoad(record.wb, spooled.reruns));
      return { transactionId: spooled.load.load_id, rows: spooled.rows, record: store.workbooks.getByWb(record.wb) as WorkbookRecord };
    });
  }

  /**
   * Stops the workbook's running load after its current batch: the rows that ran keep their
   * outcomes, the others stay not run, so a later load runs them (and never one that loaded).
   * The workbook leaves `loading` when the load has stopped (its `workbook` event).
   */
  cancel(who: Who, id: string): WorkbookRecord {
    const found = this.books.find(who, id);
    if (found.state !== 'loading' || found.load_id === null || !this.deps.loads.cancel(found.load_id, who.principal.username)) {
      throw new ApiError(409, 'not-loading', 'This workbook has no load running: there is nothing to cancel.');
    }
    return found;
  }

  /**
   * Writes each row's outcome inside its batch's transaction (load-run.ts `RowHook`). A conflict
   * is a row the plan found clean that the store refused since: its target changed (`plan-conflict`),
   * or its key, free when planned, is taken now (`conflict`). A row the plan already flagged fails.
   */
  private outcomeWriter(wb: number): RowHook {
    const { workbookOutcomes } = this.deps.store;
    return (row, outcome) => {
      if (row.stagedRow === undefined) return;
      const code = outcome.error?.code;
      const conflict = code === 'plan-conflict' || (code === 'conflict' && row.expect?.pkid === '');
      workbookOutcomes.put(wb, {
        row_id: row.stagedRow,
        status: outcome.status === 'Success' ? 'loaded' : conflict ? 'conflict' : 'failed',
        transaction_id: outcome.transactionId,
        message: outcome.error?.message ?? '',
        pkid: outcome.resourcePkid,
      });
    };
  }

  /**
   * A load ended. Loaded rows it ran again (edited since their load) are validated again first:
   * their "Load will modify" warning has come true (or their modify failed, and it stands).
   */
  private async afterLoad(wb: number, reruns: number[]): Promise<void> {
    if (reruns.length > 0) {
      await this.books
        .serial(wb, () => this.books.revalidateRows(wb, reruns))
        .catch((error: unknown) => {
          const record = this.deps.store.workbooks.getByWb(wb);
          this.deps.onInternalError(error, record?.id ?? String(wb));
        });
    }
    this.finishLoad(wb);
  }

  /** A load ended (or was cut by a crash and settled at start): `loaded` when every row has, else `failed`. */
  finishLoad(wb: number): void {
    const { store } = this.deps;
    const record = store.workbooks.getByWb(wb);
    if (!record) return;
    const counts = store.workbookOutcomes.counts(wb);
    store.workbooks.setState(wb, counts.loaded >= record.load_total ? 'loaded' : 'failed', null, this.deps.now());
    releaseMappedPages(store.db);
    this.books.emit(record.id);
  }

  /**
   * At start, after bulk loads have been settled: a workbook left `loading` takes its state from
   * its rows' outcomes (the rows its load never reached have none: a retry runs them); one left
   * `planning` or `validating` is validated again; one left `staging` failed.
   */
  recover(): void {
    const { store } = this.deps;
    const now = this.deps.now();
    for (const record of store.workbooks.withState('loading')) this.finishLoad(record.wb);
    // Their outcomes were written in part: the whole workbook is validated again.
    for (const record of [...store.workbooks.withState('planning'), ...store.workbooks.withState('validating')]) {
      const run = this.books.serial(record.wb, () => this.books.validateWhole(record.wb));
      this.books.track(record.id, run);
      void run.catch((error: unknown) => this.planFailed(record.wb, error));
    }
    for (const record of store.workbooks.withState('staging')) {
      // A change of mapping cut by the stop: the rows as they were before it are the workbook's again.
      const before = restoreBeforeRemap(store, record.wb);
      if (before) {
        store.workbooks.setState(
          before.wb,
          before.state,
          'The app stopped while a changed mapping was being applied: the rows are as they were.',
          now,
        );
        continue;
      }
      store.db.transaction(() => {
        store.workbooks.clear(record.wb);
        store.workbooks.setState(record.wb, 'failed', 'The app stopped while the workbook was being staged: stage the file again.', now);
      })();
    }
  }
}
