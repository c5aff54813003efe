import { assertPathReach, assertRole } from '../auth/access';
import type { RevertInfo, RevertLink } from '../contract/revert-api';
import type { PlanTotals, WorkbookState } from '../contract/workbook-api';
import type { Store } from '../domain/store';
import { ApiError, notFound } from '../errors';
import type { JobPool } from '../jobs/job-pool';
import type { TxRow } from '../store/transactions-repo';
import type { WorkbookRecord } from '../store/workbooks-repo';
import type { StagedWorkbooks, Who } from '../workbooks/staged-workbooks';
import type { WorkbookRuns } from '../workbooks/workbook-runs';
import type { StageChunk } from '../workbooks/stage-file';
import type { RevertStageResult, RevertTargetsChunk } from './revert-sheets';
import type { RevertTarget } from '../store/reverts-repo';

/**
 * Reverting a finished bulk load (issue 33): its revert plan is worked out on a job worker from
 * what each of its rows changed (revert-sheets.ts), staged as a workbook of its own at the load's
 * node, and planned like any other (its conflicts: revert-checks.ts). Running it is a load of that
 * workbook (workbook-runs.ts): the same transactions, progress, outcomes, retries and
 * exactly-once as any load. Each revert is linked to the load it reverts, and its loads to it.
 */
export interface RevertDeps {
  store: Store;
  pool: JobPool;
  workbooks: StagedWorkbooks;
  runs: WorkbookRuns;
  onInternalError: (error: unknown, reference: string) => void;
  now: () => string;
}

export interface RevertStarted {
  record: WorkbookRecord;
  built: RevertStageResult;
  /** Resolves once the staged revert has been planned (or could not be). */
  planned: Promise<void>;
}

const FINISHED: ReadonlySet<string> = new Set(['Success', 'Fail', 'Success With Async Failures']);

export class Reverts {
  constructor(private readonly deps: RevertDeps) {}

  async start(who: Who, originalId: string): Promise<RevertStarted> {
    const { store, pool } = this.deps;
    const original = this.revertable(who, originalId);
    const node = store.nodes.get(original.hierarchy_pkid);
    if (!node) throw new ApiError(409, 'hierarchy-gone', `The hierarchy node load ${originalId} ran at no longer exists.`);
    const owner = who.principal.username;
    // The link first: the targets come in chunks while the rows are staged, each chunk one commit.
    const { record, result: built } = await this.deps.workbooks.stageRows(who, node, revertName(original), 'export', (take, workbookId) => {
      store.reverts.add({ workbook_id: workbookId, original_id: originalId, created_at: this.deps.now() });
      const keep = store.db.transaction((targets: RevertTarget[]) => {
        for (const target of targets) store.reverts.putTarget(workbookId, target);
      });
      const onChunk = (chunk: unknown): void => (isTargets(chunk) ? keep(chunk.targets) : take(chunk as StageChunk));
      return pool.run('revert-stage', { originalId }, { owner, onChunk });
    });
    if (built.rows === 0) {
      store.reverts.remove(record.id);
      await this.deps.workbooks.remove(who, record.id);
      throw nothingToRevert(originalId, built);
    }
    // Planned at once, with no validation of its own first: a plan is a full validation.
    this.deps.runs.plan(who, record.id, record.revision);
    const planned = this.deps.workbooks.settled(record.id);
    return { record: store.workbooks.getByWb(record.wb) as WorkbookRecord, built, planned };
  }

  /** The load's reverts, and the load a revert's load reverts, as far as the caller may see them. */
  link(who: Who, id: string): RevertLink {
    const { store } = this.deps;
    const row = store.transactions.get(id);
    if (!row) throw notFound(`Transaction ${id} was not found.`);
    assertPathReach(who.principal, who.callerPath, row.hierarchy_path);
    const revertWorkbook = store.reverts.workbookOfLoad(id);
    const reverts = revertWorkbook === undefined ? null : (store.reverts.ofWorkbook(revertWorkbook)?.original_id ?? null);
    const revertedBy: RevertInfo[] = [];
    for (const revert of store.reverts.ofOriginal(id)) {
      const record = this.deps.workbooks.visibleTo(who, revert.workbook_id);
      if (record) revertedBy.push(infoOf(store, record));
    }
    return { transaction_id: id, reverted_by: revertedBy, reverts };
  }

  /** The load, if the caller may revert it: a finished bulk load (a parent) within the caller's reach, by a role that may load. */
  private revertable(who: Who, id: string): TxRow & { hierarchy_pkid: string } {
    const row = this.deps.store.transactions.get(id);
    if (!row) throw notFound(`Transaction ${id} was not found.`);
    assertPathReach(who.principal, who.callerPath, row.hierarchy_path);
    assertRole(who.principal, 'bulkload');
    if (row.parent_id !== null)
      throw new ApiError(
        409,
        'not-revertable',
        `Transaction ${id} is one row of load ${row.parent_id}: a load is reverted whole (revert ${row.parent_id}, then drop the rows to keep).`,
      );
    if (row.action !== 'Execute Bulk Load' || row.hierarchy_pkid === null)
      throw new ApiError(
        409,
        'not-revertable',
        `Transaction ${id} is a ${row.action}, not a bulk load: only a bulk load (a file's, a staged workbook's or a scheduled one) can be reverted.`,
      );
    if (!FINISHED.has(row.status)) throw new ApiError(409, 'load-running', `Load ${id} is ${row.status}: revert it once it has finished.`);
    return { ...row, hierarchy_pkid: row.hierarchy_pkid };
  }
}

const isTargets = (chunk: unknown): chunk is RevertTargetsChunk =>
  typeof chunk === 'object' && chunk !== null && (chunk as { type?: unknown }).type === 'targets';

function nothingToRevert(id: string, built: RevertStageResult): ApiError {
  const why =
    built.unrecorded > 0
      ? `its ${built.unrecorded} row(s) that succeeded ran before this workstation kept what each row changes, so they cannot be reverted`
      : built.failed > 0
        ? 'none of its rows succeeded, so it changed nothing'
        : 'what its rows changed leaves nothing to undo (what it made, it also removed)';
  return new ApiError(409, 'nothing-to-revert', `Load ${id} has nothing to revert: ${why}.`);
}

/** "Revert of <the load's file>": the file name from the load's detail (`... sheet in <file>`). */
function revertName(original: TxRow): string {
  const file = /\bsheets? in (.+)$/.exec(original.detail)?.[1] ?? original.transaction_id;
  return `Revert of ${file} (${original.transaction_id.slice(0, 8)})`;
}

function infoOf(store: Store, record: WorkbookRecord): RevertInfo {
  const totals = record.plan_totals === null ? null : (JSON.parse(record.plan_totals) as PlanTotals);
  return {
    workbook_id: record.id,
    name: record.name,
    state: record.state as WorkbookState,
    plan: record.plan_revision !== null && totals ? { revision: record.plan_revision, totals } : null,
    loads: store.reverts.loadsOf(record.id),
  };
}
