import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { principalOfUser } from '../auth/principal';
import type { WorkbookEvent } from '../contract/service-events';
import type { WorkbookEditPreview, WorkbookEditResult, WorkbookSource } from '../contract/workbook-api';
import { cellChanges } from './edit-preview';
import { isWithin } from '../domain/hierarchy';
import type { Store } from '../domain/store';
import { ApiError, notFound } from '../errors';
import type { WorkbookOutcomesChunk } from '../jobs/job-handlers';
import type { JobPool } from '../jobs/job-pool';
import type { ValidationCaller } from '../sheets/validate-context';
import type { NodeRow } from '../store/nodes-repo';
import type { WalCheckpointer } from '../store/wal-checkpointer';
import type { CheckTargets, MirrorTarget } from './check-targets';
import type { RevisionRecord, WorkbookRecord } from '../store/workbooks-repo';
import type { StageChunk } from './stage-file';
import type { FullOutcome, RowOutcome } from './staged-validator';
import { EditPlanner } from './workbook-edits';
import { applyOps, type AppliedOps, type PrimitiveOp } from './workbook-ops';
import { releaseMappedPages } from '../store/db';
import { applyKeyDiff } from './workbook-key-index';
import { writeOutcomes, writeSheetIssues } from './workbook-results';
import { countsOf, rowIssues } from './workbook-views';
import { TimeSlice } from '../turns';
import { addedRows, applySliced, BIG_EDIT, editSize } from './sliced-apply';
import { checkNewWorkbook, checkRows, DEFAULT_WORKBOOK_QUOTA, type WorkbookQuota } from './workbook-quota';
import type { MappingFile } from '../mapping/mapping-file';
import type { MappingPreview } from '../mapping/apply-mapping';
import type { WorkbookProposal } from '../mapping/propose-workbook';
import { checkMappingFits, needsMapping, startingMapping } from './workbook-mapping';
import type { WorkbookMappingRecord } from '../store/mappings-repo';
import {
  dropRevisionsAfter,
  isShelf,
  KEPT_SHELVES,
  REMAP_OP,
  remapReachable,
  removeWithShelves,
  restoreBeforeRemap,
  shelveForRemap,
  stepRemap,
} from './workbook-remap';

/**
 * Staged workbooks from end to end (architecture.md, Staged workbooks): staging a file (read on
 * a job worker into the workbook's tables), validating it whole there, and every edit, undo and
 * redo as a revision followed by the validation of the rows it can change. The edits of one
 * workbook run one at a time, in order; a revision names the state an edit was made on, and an
 * edit made on any other is refused, never applied on top.
 */
export interface WorkbookDeps {
  store: Store;
  pool: JobPool;
  /** Copies the write-ahead log back on a thread of its own while a full validation writes every row. */
  checkpoints?: WalCheckpointer;
  events: EventEmitter;
  now: () => string;
  onInternalError: (error: unknown, reference: string) => void;
  /** The remote profiles' mirrors, for workbooks that target one (check-targets.ts). */
  targets?: CheckTargets;
  /** What one user may keep staged; default DEFAULT_WORKBOOK_QUOTA. */
  quota?: WorkbookQuota;
}

/** Where a workbook is checked, as its answers say it. */
export interface WorkbookPlace {
  hierarchy: string;
  profile: string | null;
  checked_against: string | null;
}

export interface Who {
  principal: { pkid: string; username: string; role: 'admin' | 'operator' | 'readonly'; hierarchyPkid: string };
  callerPath: string;
}

/** What the `workbook` service event says (declared once, in the contract). */
export type { WorkbookEvent };

/**
 * `callerOf`, `nodeOf`, `emit`, `serial`, `editable`, `checkRevision`, `validated` and
 * `validateWhole` are this
 * folder's own: plans and loads (workbook-runs.ts) run in the same per-workbook order.
 */
/** Rows a duplicate copies per statement: about 10-20 ms of the service's thread each. */
const COPY_SLICE = 1_000;

export class StagedWorkbooks {
  private readonly chains = new Map<number, Promise<unknown>>();
  private readonly staging = new Map<string, Promise<void>>();

  private readonly quota: WorkbookQuota;

  constructor(private readonly deps: WorkbookDeps) {
    this.quota = deps.quota ?? DEFAULT_WORKBOOK_QUOTA;
  }

  /** The workbook, if the caller may see it: its owner, or an admin at or above the owner's node. Else 404: another's workbook is not shown to exist. */
  find(who: Who, id: string): WorkbookRecord {
    const record = this.visibleTo(who, id);
    if (!record) throw notFound(`No staged workbook has the id '${id}'.`);
    return record;
  }

  /** The workbook when the caller may see it (as `find`), else undefined: for filtering, where nothing is refused. */
  visibleTo(who: Who, id: string): WorkbookRecord | undefined {
    const record = this.deps.store.workbooks.get(id);
    return record !== undefined && !isShelf(record) && maySee(who, record) ? record : undefined;
  }

  list(who: Who): WorkbookRecord[] {
    return this.deps.store.workbooks.list().filter((record) => maySee(who, record));
  }

  /** Resolves when the workbook's staging (and first validation), or its plan, has ended, well or not. */
  async settled(id: string): Promise<void> {
    await this.staging.get(id);
  }

  /** Long work on a workbook that `settled` waits for (a plan). */
  track(id: string, work: Promise<unknown>): void {
    const tracked = work.then(
      () => undefined,
      () => undefined,
    );
    this.staging.set(id, tracked);
    void tracked.then(() => {
      if (this.staging.get(id) === tracked) this.staging.delete(id);
    });
  }

  /** Starts staging a file; answers the workbook at once (state `staging`). `done` runs after (to remove a temporary file). */
  stageFile(
    who: Who,
    node: NodeRow,
    path: string,
    name: string,
    source: WorkbookSource,
    done?: () => void,
    /** The remote profile it targets: `node` is then a node of its mirror. */
    profilePkid: string | null = null,
    /** The upload it is staged from: a sheet the loader would refuse for its headers then waits for its mapping (workbook-mapping.ts). */
    uploadId?: string,
  ): WorkbookRecord {
    const { store } = this.deps;
    const { id, wb } = this.newStaging(who, node, name, source, profilePkid);
    const staged = this.serial(wb, () => this.stage(wb, who, path, name, uploadId))
      .catch((error: unknown) => this.failStaging(wb, error))
      .finally(() => done?.());
    this.staging.set(id, staged);
    void staged.finally(() => this.staging.delete(id));
    return store.workbooks.getByWb(wb) as WorkbookRecord;
  }

  /** A new workbook record, empty, in state `staging`, within the owner's quota. */
  private newStaging(
    who: Who,
    node: NodeRow,
    name: string,
    source: WorkbookSource,
    profilePkid: string | null,
  ): { id: string; wb: number } {
    const { store } = this.deps;
    checkNewWorkbook(store, this.quota, who.principal.pkid);
    const now = this.deps.now();
    const id = randomUUID();
    const wb = store.workbooks.create({
      id,
      name: name.slice(0, 255),
      owner: who.principal.username,
      owner_pkid: who.principal.pkid,
      owner_path: who.callerPath,
      hierarchy_pkid: node.pkid,
      profile_pkid: profilePkid,
      source,
      state: 'staging',
      revision: store.workbooks.nextRevision(),
      created_at: now,
      updated_at: now,
    });
    return { id, wb };
  }

  /**
   * A Local workbook whose rows a job makes (a revert's, ../revert/) instead of reading a file:
   * `job` (told the workbook's id) hands its chunks to `take`, in the workbook's turn. Resolves once they are stored, with
   * the workbook (state `validating`: the caller validates it, or plans it, which validates it
   * too) and what the job answered; a job that fails leaves the workbook `failed`, saying why.
   */
  async stageRows<T>(
    who: Who,
    node: NodeRow,
    name: string,
    source: WorkbookSource,
    job: (take: (chunk: StageChunk) => void, workbookId: string) => Promise<T>,
  ): Promise<{ record: WorkbookRecord; result: T }> {
    const { store } = this.deps;
    const { id, wb } = this.newStaging(who, node, name, source, null);
    this.emit(id);
    const staged = this.serial(wb, async () => {
      const result = await job(this.chunkTaker(wb, who), id);
      store.workbooks.setState(wb, 'validating', null, this.deps.now());
      this.emit(id);
      return result;
    });
    this.track(id, staged);
    try {
      return { record: store.workbooks.getByWb(wb) as WorkbookRecord, result: await staged };
    } catch (error) {
      this.failStaging(wb, error);
      throw error;
    }
  }

  /** What stores each chunk a staging job hands over: a sheet, or rows (within the owner's quota), each chunk one commit. */
  private chunkTaker(wb: number, who: Who): (chunk: StageChunk) => void {
    const { store } = this.deps;
    return store.db.transaction((chunk: StageChunk) => {
      if (chunk.type === 'sheet') {
        store.workbooks.addSheet({ ...chunk.sheet, wb });
        return;
      }
      // Past the owner's quota the staging fails (its rows dropped), its problem saying what to delete.
      checkRows(store, this.quota, who.principal.pkid, chunk.cells.length);
      const first = store.workbooks.takeRowIds(wb, chunk.cells.length);
      chunk.cells.forEach((cells, offset) => store.workbooks.addRow(wb, first + offset, chunk.sheet_no, chunk.first_idx + offset, cells));
    });
  }

  /**
   * A copy of a workbook's sheets and rows as they stand, owned by the caller at the same node, to
   * try something on without touching the original: its own history (none yet), validated anew.
   * Answered at once (state `staging`); the rows are copied in slices in the original's turn (no
   * edit of it comes between them), with the event loop free between slices: in one statement,
   * 100,000 rows held it 350 ms.
   */
  duplicate(who: Who, id: string): WorkbookRecord {
    const { store } = this.deps;
    const found = this.find(who, id);
    if (found.state === 'staging' || found.state === 'failed')
      throw new ApiError(409, 'workbook-busy', 'Only a staged workbook can be duplicated: wait until it is staged.');
    if (found.state === 'mapping')
      throw new ApiError(409, 'workbook-mapping', 'The workbook waits for its mapping: confirm it before duplicating the rows it makes.');
    const rows = store.workbooks.sheets(found.wb).reduce((sum, sheet) => sum + sheet.rows, 0);
    checkNewWorkbook(store, this.quota, who.principal.pkid, rows);
    const now = this.deps.now();
    const copyId = randomUUID();
    const wb = store.workbooks.create({
      id: copyId,
      name: `${found.name.slice(0, 240)} (copy)`,
      owner: who.principal.username,
      owner_pkid: who.principal.pkid,
      owner_path: who.callerPath,
      hierarchy_pkid: found.hierarchy_pkid,
      profile_pkid: found.profile_pkid,
      source: found.source,
      state: 'staging',
      revision: store.workbooks.nextRevision(),
      created_at: now,
      updated_at: now,
    });
    const copied = this.serial(found.wb, () => this.copyRows(found.wb, wb, found.name));
    const validated = this.serial(wb, async () => {
      await copied;
      await this.validateWhole(wb);
    }).catch((error: unknown) => this.failStaging(wb, error));
    this.track(copyId, validated);
    this.emit(copyId);
    return store.workbooks.getByWb(wb) as WorkbookRecord;
  }

  /**
   * The rows that loaded stay loaded in the copy (issue 29, point 6): the instances they made are
   * theirs, so the copy checks them as those instances (never as duplicates of them, every row in
   * error), its Outcome column says each one loaded and by which workbook, and Load runs only the
   * others (and, edited, a loaded row as the modify of its instance).
   */
  private async copyRows(from: number, to: number, fromName: string): Promise<void> {
    const { store } = this.deps;
    const source = store.workbooks.getByWb(from) as WorkbookRecord;
    store.workbooks.copySheets(from, to);
    const end = (store.workbooks.getByWb(to) as WorkbookRecord).next_row;
    const message = `Loaded by workbook '${fromName}' before this copy was made: this row is that instance now`;
    for (let start = 0; start < end; start += COPY_SLICE) {
      store.db.transaction(() => {
        store.workbooks.copyRows(from, to, start, start + COPY_SLICE);
        if (source.load_id !== null) store.workbookOutcomes.copyLoaded(from, to, start, start + COPY_SLICE, message);
      })();
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (source.load_id !== null && store.workbookOutcomes.counts(to).loaded > 0)
      store.workbooks.setLoad(to, source.load_id, source.load_total);
  }

  private async stage(
    wb: number,
    who: Who,
    path: string,
    name: string,
    uploadId?: string,
    /** Staged through a confirmed mapping (confirmMapping). */
    mapped?: { mapping: MappingFile; nodePkid: string },
  ): Promise<void> {
    const { store, pool } = this.deps;
    const take = this.chunkTaker(wb, who);
    try {
      await pool.run(
        'stage-file',
        { path, fileName: name, mapped },
        { owner: who.principal.username, onChunk: (chunk) => take(chunk as StageChunk) },
      );
    } catch (error) {
      // A customer's own sheet: never refused for its headers, it waits for its mapping (Local workbooks).
      const local = (store.workbooks.getByWb(wb) as WorkbookRecord).profile_pkid === null;
      if (uploadId === undefined || !local || !needsMapping(error)) throw error;
      await this.enterMapping(wb, who, { uploadId, path, name }, error);
      return;
    }
    await this.validateWhole(wb);
  }

  /** The workbook in the `mapping` state: the proposal for its columns, a remembered mapping or the proposal's to confirm. */
  private async enterMapping(
    wb: number,
    who: Who,
    file: { uploadId: string; path: string; name: string },
    reason: ApiError,
  ): Promise<void> {
    const { store, pool } = this.deps;
    const proposal = await pool.run('propose-mapping', { path: file.path, fileName: file.name }, { owner: who.principal.username });
    const record = store.workbooks.getByWb(wb) as WorkbookRecord;
    const node = store.nodes.get(record.hierarchy_pkid);
    if (!node) throw notFound('The hierarchy node of this workbook no longer exists.');
    const { mapping, remembered } = startingMapping(store, node, proposal);
    store.db.transaction(() => {
      store.workbooks.clear(wb);
      store.mappings.setWorkbookMapping({
        wb,
        upload_id: file.uploadId,
        file_name: file.name,
        reason: reason.message,
        proposal: JSON.stringify(proposal),
        mapping: JSON.stringify(mapping),
        remembered: remembered?.id ?? null,
        applied: 0,
      });
      store.workbooks.setState(wb, 'mapping', reason.message, this.deps.now());
    })();
    this.emit(record.id);
  }

  /**
   * Confirms a workbook's mapping (POST .../mapping/): the customer's file read through it on a job
   * worker straight into the workbook's rows, in the workbook's turn. Answered at once (state
   * `staging`). A mapping that does not fit the file (a header it does not have) is refused before
   * anything changes; one that fails while staging puts the workbook back in `mapping`, its
   * problem saying why. Confirmed again later, the rows are made anew from the file as a revision
   * that Undo takes back, with the edits before it (remap); a workbook whose rows were loaded
   * keeps them (409).
   */
  confirmMapping(who: Who, id: string, mapping: MappingFile, saveAs?: string): WorkbookRecord {
    const { store } = this.deps;
    const record = this.find(who, id);
    const found = store.mappings.workbookMapping(record.wb);
    if (!found) throw new ApiError(409, 'no-mapping', 'This workbook was staged from a sheet in our layout: it has no mapping to confirm.');
    if (['staging', 'validating', 'planning', 'loading'].includes(record.state))
      throw new ApiError(409, 'workbook-busy', `The workbook is ${record.state}: confirm its mapping when that has ended.`);
    if (record.load_id !== null)
      throw new ApiError(409, 'workbook-loaded', 'Rows of this workbook were loaded: stage the file again to map it another way.');
    const upload = store.uploads.get(found.upload_id);
    if (!upload)
      throw new ApiError(
        409,
        'upload-gone',
        `The file ${found.file_name} was deleted from the uploads: upload it again and stage it anew.`,
      );
    const proposal = JSON.parse(found.proposal) as WorkbookProposal;
    // Checked here, before anything changes: rows staged through an earlier mapping stay as they are.
    checkMappingFits(mapping, proposal, found.file_name);
    if (saveAs !== undefined) this.saveMapping(who, record, mapping, proposal, saveAs);
    if (found.applied === 1) return this.remap(who, record, mapping, store.uploads.pathOf(upload.id), found.file_name);
    store.workbooks.setState(record.wb, 'staging', null, this.deps.now());
    this.emit(id);
    const work = this.serial(record.wb, async () => {
      store.db.transaction(() => {
        store.workbooks.clear(record.wb);
        store.workbooks.setRevision(record.wb, store.workbooks.nextRevision(), 0, this.deps.now());
        store.mappings.setWorkbookMapping({ ...found, mapping: JSON.stringify(mapping), applied: 1 });
      })();
      // The customer's file read through the mapping on a job worker, straight into the workbook.
      await this.stage(record.wb, who, store.uploads.pathOf(upload.id), found.file_name, undefined, {
        mapping,
        nodePkid: record.hierarchy_pkid,
      });
    }).catch((error: unknown) => this.backToMapping(record.wb, error));
    this.track(id, work);
    return store.workbooks.getByWb(record.wb) as WorkbookRecord;
  }

  /**
   * A changed mapping on rows an earlier one made (workbook-remap.ts): the rows as they stand are
   * shelved with their history, and the file is staged anew into the workbook's place, a revision
   * Undo takes back. One that fails to stage gives the old rows back, its problem saying why.
   */
  private remap(who: Who, record: WorkbookRecord, mapping: MappingFile, path: string, fileName: string): WorkbookRecord {
    const { store } = this.deps;
    // Shelved at once, between two edits: an edit being applied would land on the shelf.
    if (this.chains.has(record.wb))
      throw new ApiError(409, 'workbook-busy', 'An edit of the workbook is being applied: confirm its mapping when it has ended.');
    const wb = shelveForRemap(store, record, who.principal.username, this.deps.now());
    const found = store.mappings.workbookMapping(wb) as WorkbookMappingRecord;
    store.mappings.setWorkbookMapping({ ...found, mapping: JSON.stringify(mapping), applied: 1 });
    this.emit(record.id);
    const work = this.serial(wb, () => this.stage(wb, who, path, fileName, undefined, { mapping, nodePkid: record.hierarchy_pkid })).catch(
      (error: unknown) => {
        const old = restoreBeforeRemap(store, wb);
        if (!old) return this.failStaging(wb, error);
        if (!(error instanceof ApiError)) this.deps.onInternalError(error, record.id);
        const why = error instanceof ApiError ? error.message : 'an internal error (see the log)';
        store.workbooks.setState(
          old.wb,
          old.state,
          `The changed mapping could not be applied, and the rows are as they were: ${why}`,
          this.deps.now(),
        );
        this.emit(old.id);
      },
    );
    this.track(record.id, work);
    return store.workbooks.getByWb(wb) as WorkbookRecord;
  }

  /** The first rows of the customer's sheet as `mapping` makes them (POST .../mapping/preview/), on a job worker; nothing changes. */
  async previewMapping(who: Who, id: string, mapping: MappingFile): Promise<MappingPreview> {
    const { store, pool } = this.deps;
    const record = this.find(who, id);
    const found = store.mappings.workbookMapping(record.wb);
    if (!found) throw new ApiError(409, 'no-mapping', 'This workbook was staged from a sheet in our layout: it has no mapping to preview.');
    const upload = store.uploads.get(found.upload_id);
    if (!upload) throw new ApiError(409, 'upload-gone', `The file ${found.file_name} was deleted from the uploads: upload it again.`);
    checkMappingFits(mapping, JSON.parse(found.proposal) as WorkbookProposal, found.file_name);
    return pool.run(
      'preview-mapping',
      { path: store.uploads.pathOf(upload.id), fileName: found.file_name, mapping, nodePkid: record.hierarchy_pkid },
      { owner: who.principal.username },
    );
  }

  private saveMapping(who: Who, record: WorkbookRecord, mapping: MappingFile, proposal: WorkbookProposal, name: string): void {
    this.deps.store.mappings.save({
      name,
      node_pkid: record.hierarchy_pkid,
      model_type: mapping.model,
      headers: JSON.stringify(proposal.sheets[0]?.columns.map((column) => column.header) ?? []),
      mapping: JSON.stringify(mapping),
      owner: who.principal.username,
      updated_at: this.deps.now(),
    });
  }

  /** A mapping that failed to apply or stage: the workbook waits in `mapping` again, empty, with the reason. */
  private backToMapping(wb: number, error: unknown): void {
    const { store } = this.deps;
    const record = store.workbooks.getByWb(wb);
    const found = store.mappings.workbookMapping(wb);
    if (!record || !found) return this.failStaging(wb, error);
    if (!(error instanceof ApiError)) this.deps.onInternalError(error, record.id);
    const message = error instanceof ApiError ? error.message : 'The mapping could not be applied: an internal error (see the log).';
    store.db.transaction(() => {
      store.workbooks.clear(wb);
      store.mappings.setWorkbookMapping({ ...found, applied: 0 });
      store.workbooks.setState(wb, 'mapping', message, this.deps.now());
    })();
    this.emit(record.id);
  }

  private failStaging(wb: number, error: unknown): void {
    const { store } = this.deps;
    const record = store.workbooks.getByWb(wb);
    if (!record) return;
    if (!(error instanceof ApiError)) this.deps.onInternalError(error, record.id);
    const message = error instanceof ApiError ? error.message : 'The workbook could not be staged: an internal error (see the log).';
    // The record stays, empty and failed, so whoever waits on it learns why.
    store.db.transaction(() => {
      store.workbooks.clear(wb);
      store.workbooks.setState(wb, 'failed', message, this.deps.now());
    })();
    this.emit(record.id);
  }

  /**
   * The mirror a workbook that targets a remote profile is checked against; undefined for a Local
   * workbook; 409 when the mirror is gone or was never pulled.
   */
  mirrorOf(record: WorkbookRecord): MirrorTarget | undefined {
    if (record.profile_pkid === null) return undefined;
    const target = this.deps.targets?.mirrorOf(record.profile_pkid);
    if (!target)
      throw new ApiError(
        409,
        'mirror-missing',
        "This workbook is checked against its remote profile's mirror, which is gone or was never pulled: pull it (sync pull), or stage the workbook again.",
      );
    return target;
  }

  /** What a validation job checks against: the mirror's file for a profile's workbook. */
  checkFileOf(record: WorkbookRecord): { mirrorFile?: string } {
    const mirror = this.mirrorOf(record);
    return mirror ? { mirrorFile: mirror.file } : {};
  }

  /** Where the workbook is checked, for its answers (never refused: a workbook whose mirror went is still read and saved). */
  placeOf(record: WorkbookRecord): WorkbookPlace {
    if (record.profile_pkid === null)
      return { hierarchy: this.deps.store.nodes.get(record.hierarchy_pkid)?.path ?? '', profile: null, checked_against: null };
    const mirror = this.deps.targets?.mirrorOf(record.profile_pkid);
    return {
      hierarchy: mirror?.store.nodes.get(record.hierarchy_pkid)?.path ?? '',
      profile: mirror?.profileName ?? null,
      checked_against: mirror?.pulledAt ?? null,
    };
  }

  /** Who validation runs as: the owner as the store knows it now (its role and node); for a profile's workbook, the profile's remote user. */
  callerOf(record: WorkbookRecord): ValidationCaller {
    const mirror = this.mirrorOf(record);
    if (mirror) return mirror.caller;
    const principal = principalOfUser(this.deps.store, record.owner_pkid);
    const node = principal && this.deps.store.nodes.get(principal.hierarchyPkid);
    if (!principal || !node)
      throw new ApiError(
        409,
        'owner-gone',
        `The owner of this workbook, ${record.owner}, no longer exists: it can be read and saved, not validated.`,
      );
    return { principal, callerPath: node.path };
  }

  nodeOf(record: WorkbookRecord): NodeRow {
    const node = (this.mirrorOf(record)?.store ?? this.deps.store).nodes.get(record.hierarchy_pkid);
    if (!node) throw new ApiError(409, 'hierarchy-gone', 'The hierarchy node this workbook loads at no longer exists.');
    return node;
  }

  /** Every row validated again (on a worker), its outcomes written as they come. */
  async validateWhole(wb: number): Promise<void> {
    const { store } = this.deps;
    const record = store.workbooks.getByWb(wb) as WorkbookRecord;
    store.workbooks.setState(wb, 'validating', null, this.deps.now());
    this.emit(record.id);
    // A full validation writes every row: what earlier work left mapped is let go first, and its own after.
    releaseMappedPages(store.db);
    this.deps.checkpoints?.hold();
    try {
      await this.writeWholeValidation(wb, record);
    } finally {
      this.deps.checkpoints?.release();
    }
    releaseMappedPages(store.db);
  }

  /**
   * The outcomes of a full validation written as the worker hands them over. SQLite's own
   * checkpoints would run in the commits of these writes, on the service's thread (measured: pauses
   * of 100-300 ms of its event loop in a 100,000-row validation); the checkpointer's thread does them.
   */
  private async writeWholeValidation(wb: number, record: WorkbookRecord): Promise<void> {
    const { store, pool } = this.deps;
    const write = store.db.transaction((outcomes: FullOutcome[]) => writeOutcomes(store, wb, outcomes, 'whole'));
    const keysByRow = this.keysPending(record);
    const result = await pool.run(
      'validate-workbook',
      { wb, caller: this.callerOf(record), nodePkid: this.nodeOf(record).pkid, keysByRow, ...this.checkFileOf(record) },
      { owner: record.owner, onChunk: (chunk) => write((chunk as WorkbookOutcomesChunk).outcomes) },
    );
    if (result.keys) await applyKeyDiff(store, wb, result.keys);
    store.db.transaction(() => {
      writeSheetIssues(store, wb, result.sheets ?? []);
      store.workbooks.setKeysCurrent(wb, true);
      this.validated(wb, record.revision);
    })();
  }

  /**
   * Before a full validation writes its outcomes (which leave the key index to its end): whether
   * the index was current, so that the job may find its difference row by row. Until the end,
   * the index is marked not current: a validation that stops midway leaves the next one to merge
   * it whole.
   */
  keysPending(record: WorkbookRecord): boolean {
    this.deps.store.workbooks.setKeysCurrent(record.wb, false);
    return record.keys_current === 1;
  }

  validated(wb: number, revision: number): void {
    const { store } = this.deps;
    const record = store.workbooks.getByWb(wb) as WorkbookRecord;
    store.workbooks.setValidated(wb, revision);
    const counts = countsOf(store, wb);
    store.workbooks.setState(wb, counts.errors > 0 ? 'draft' : 'validated', null, this.deps.now());
    this.emit(record.id);
  }

  emit(id: string): void {
    const record = this.deps.store.workbooks.get(id);
    if (!record) return;
    const event: WorkbookEvent = { id, state: record.state, revision: record.revision, validated_revision: record.validated_revision };
    this.deps.events.emit('workbook', event);
  }

  /** Runs `work` after the workbook's earlier work: its edits apply one at a time, in order. */
  serial<T>(wb: number, work: () => Promise<T>): Promise<T> {
    const before = this.chains.get(wb) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    this.chains.set(wb, tail);
    void tail.then(() => {
      if (this.chains.get(wb) === tail) this.chains.delete(wb);
    });
    return run;
  }

  editable(record: WorkbookRecord): void {
    if (record.state === 'mapping')
      throw new ApiError(
        409,
        'workbook-mapping',
        'The workbook waits for its mapping: confirm it (POST .../mapping/) before editing rows.',
      );
    if (record.state === 'staging')
      throw new ApiError(409, 'workbook-busy', 'The workbook is still being staged: edit it when its state is draft or validated.');
    if (record.state === 'loading')
      throw new ApiError(409, 'workbook-busy', 'The workbook is being loaded: edit it when the load has ended.');
    if (record.state === 'failed' && record.validated_revision === null)
      throw new ApiError(409, 'workbook-failed', `The workbook could not be staged: ${record.problem ?? ''}`);
    // An interrupted push carries these rows as they were: they change only once it has ended.
    if (record.profile_pkid !== null && this.deps.store.workbookPushes.unfinished(record.wb))
      throw new ApiError(
        409,
        'workbook-pushing',
        'A push of this workbook was interrupted: run it again (sync push) to finish it before changing the workbook.',
      );
  }

  checkRevision(record: WorkbookRecord, revision: unknown): void {
    if (revision !== record.revision) {
      throw new ApiError(
        409,
        'revision-conflict',
        `The workbook is at revision ${record.revision}, not ${String(revision)}: it changed since you read it. Read it again and redo your edit.`,
      );
    }
  }

  /**
   * What an edit would change, planned as `edit` plans it and applied to nothing (Replace all's
   * confirmation): the cells it sets and the first PREVIEWED of them, with their value now.
   */
  async previewEdit(who: Who, id: string, edit: unknown): Promise<WorkbookEditPreview> {
    const found = this.find(who, id);
    this.editable(found);
    return this.serial(found.wb, async () => {
      const planner = new EditPlanner(this.deps.store, found.wb);
      const planned = (await planner.prepare(edit)) ?? planner.plan(edit);
      return { success: true, summary: planned.summary, ...cellChanges(this.deps.store, found.wb, planned.ops) };
    });
  }

  async edit(who: Who, id: string, revision: unknown, edit: unknown): Promise<WorkbookEditResult> {
    const found = this.find(who, id);
    this.editable(found);
    return this.serial(found.wb, async () => {
      const { store } = this.deps;
      const record = store.workbooks.getByWb(found.wb) as WorkbookRecord;
      this.editable(record);
      this.checkRevision(record, revision);
      const planner = new EditPlanner(store, record.wb);
      // A replace reads its range with turns for the event loop, outside the write transaction.
      const prepared = await planner.prepare(edit);
      const planned = prepared ?? planner.plan(edit);
      const revisionOf = (forward: string, backward: string) => ({
        seq: record.head + 1,
        op: planned.op,
        summary: planned.summary,
        username: who.principal.username,
        at: this.deps.now(),
        forward,
        backward,
      });
      if (editSize(planned.ops) > BIG_EDIT) {
        const added = addedRows(planned.ops);
        if (added > 0) checkRows(store, this.quota, record.owner_pkid, added);
        const sliced = await applySliced(
          store,
          record.wb,
          planned.ops,
          ({ forward, backward }) => {
            dropRevisionsAfter(store, record.wb, record.head);
            store.workbooks.addRevision(record.wb, revisionOf(forward, backward));
            store.workbooks.setRevision(record.wb, store.workbooks.nextRevision(), record.head + 1, this.deps.now());
          },
          this.deps.checkpoints,
        );
        sliced.applied.changedCells += planned.insertedCells ?? 0;
        return this.afterChange(record.wb, sliced.applied);
      }
      const applied = store.db.transaction(() => {
        const rowsBefore = storedRows(store, record.wb);
        const done = applyOps(store, record.wb, planned.ops);
        // Rows added (a paste past the end, inserted rows) count to the owner's quota: past it, nothing is applied.
        if (storedRows(store, record.wb) > rowsBefore) checkRows(store, this.quota, record.owner_pkid, 0);
        dropRevisionsAfter(store, record.wb, record.head);
        store.workbooks.addRevision(record.wb, revisionOf(JSON.stringify(planned.ops), JSON.stringify(done.inverse)));
        store.workbooks.setRevision(record.wb, store.workbooks.nextRevision(), record.head + 1, this.deps.now());
        return done;
      })();
      applied.changedCells += planned.insertedCells ?? 0;
      return this.afterChange(record.wb, applied);
    });
  }

  /** Undo (`step` -1) or redo (+1): the history's previous or next revision, applied as a revision of its own. */
  async step(who: Who, id: string, revision: unknown, step: -1 | 1): Promise<WorkbookEditResult> {
    const found = this.find(who, id);
    this.editable(found);
    return this.serial(found.wb, async () => {
      const { store } = this.deps;
      const record = store.workbooks.getByWb(found.wb) as WorkbookRecord;
      this.editable(record);
      this.checkRevision(record, revision);
      const entry = store.workbooks.revision(record.wb, step < 0 ? record.head : record.head + 1);
      if (!entry)
        throw new ApiError(
          409,
          step < 0 ? 'nothing-to-undo' : 'nothing-to-redo',
          step < 0 ? 'There is no edit to undo.' : 'There is no undone edit to redo.',
        );
      if (entry.op === REMAP_OP) return this.stepRemap(record, entry, step);
      const ops = JSON.parse(step < 0 ? entry.backward : entry.forward) as PrimitiveOp[];
      const moveHead = (): void =>
        store.workbooks.setRevision(record.wb, store.workbooks.nextRevision(), record.head + step, this.deps.now());
      if (editSize(ops) > BIG_EDIT)
        return this.afterChange(record.wb, (await applySliced(store, record.wb, ops, moveHead, this.deps.checkpoints)).applied);
      const applied = store.db.transaction(() => {
        const done = applyOps(store, record.wb, ops);
        moveHead();
        return done;
      })();
      return this.afterChange(record.wb, applied);
    });
  }

  /** Undo or redo of a change of mapping: the workbook's id goes to the other rows, validated again against the store as it is. */
  private async stepRemap(record: WorkbookRecord, entry: RevisionRecord, step: -1 | 1): Promise<WorkbookEditResult> {
    const { store } = this.deps;
    if (!remapReachable(store, entry))
      throw new ApiError(
        409,
        'remap-gone',
        `The rows from before this change of mapping are no longer kept (the ${KEPT_SHELVES} last changes are): it cannot be ${step < 0 ? 'undone' : 'redone'}.`,
      );
    const now = stepRemap(store, record, entry, step, this.deps.now());
    this.emit(now.id);
    return this.serial(now.wb, () => this.afterChange(now.wb, { inverse: [], changedCells: 0, rows: new Set(), structural: true }));
  }

  /** Validates what the change can affect (all of it when rows or columns moved) and answers the rows' issues now. */
  private async afterChange(wb: number, applied: AppliedOps): Promise<WorkbookEditResult> {
    const { store, pool } = this.deps;
    const record = store.workbooks.getByWb(wb) as WorkbookRecord;
    let outcomes: RowOutcome[] = [];
    if (applied.structural) await this.validateWhole(wb);
    else if (applied.rows.size > 0) {
      const result = await pool.run(
        'validate-workbook',
        { wb, caller: this.callerOf(record), nodePkid: this.nodeOf(record).pkid, changed: [...applied.rows], ...this.checkFileOf(record) },
        { owner: record.owner },
      );
      outcomes = result.outcomes;
      store.db.transaction(() => {
        writeOutcomes(store, wb, outcomes);
        this.validated(wb, record.revision);
      })();
    } else this.validated(wb, record.revision);
    const now = store.workbooks.getByWb(wb) as WorkbookRecord;
    const sheets = new Map(store.workbooks.sheets(wb).map((sheet) => [sheet.sheet_no, sheet]));
    const shown = new Set([...applied.rows, ...outcomes.map((outcome) => outcome.row_id)]);
    // A big edit's rows are read in slices too: 100,000 rows' issues are a second of reads.
    const issues: WorkbookEditResult['issues'] = [];
    const slice = new TimeSlice();
    for (const rowId of shown) {
      if (slice.due()) await slice.turn();
      const row = store.workbooks.row(wb, rowId);
      const sheet = row && sheets.get(row.sheet_no);
      if (row && sheet) issues.push(...rowIssues(store, wb, sheet, row));
    }
    return {
      success: true,
      revision: now.revision,
      can_undo: now.head > 0,
      can_redo: store.workbooks.revision(wb, now.head + 1) !== undefined,
      changed: applied.changedCells,
      revalidated: applied.structural ? countsOf(store, wb).rows : outcomes.length,
      issues,
      counts: countsOf(store, wb),
    };
  }

  /**
   * Validates these rows again (and the rows they affect) against the store as it is now: the
   * loaded rows a load ran again as modifies, whose "Load will modify" warning has come true.
   * Run in the workbook's turn.
   */
  async revalidateRows(wb: number, rowIds: number[]): Promise<void> {
    const { store, pool } = this.deps;
    const record = store.workbooks.getByWb(wb);
    if (!record || rowIds.length === 0) return;
    const result = await pool.run(
      'validate-workbook',
      { wb, caller: this.callerOf(record), nodePkid: this.nodeOf(record).pkid, changed: rowIds, ...this.checkFileOf(record) },
      { owner: record.owner },
    );
    store.db.transaction(() => writeOutcomes(store, wb, result.outcomes))();
  }

  /** Validates the whole workbook again, against the store as it is now. */
  async revalidate(who: Who, id: string): Promise<WorkbookRecord> {
    const found = this.find(who, id);
    this.editable(found);
    await this.serial(found.wb, () => this.validateWhole(found.wb));
    return this.deps.store.workbooks.getByWb(found.wb) as WorkbookRecord;
  }

  async remove(who: Who, id: string): Promise<void> {
    const found = this.find(who, id);
    if (found.state === 'loading')
      throw new ApiError(409, 'workbook-busy', 'The workbook is being loaded: delete it when the load has ended.');
    // With the rows of its changes of mapping that Undo could bring back.
    await this.serial(found.wb, async () => removeWithShelves(this.deps.store, found.wb));
  }
}

function storedRows(store: Store, wb: number): number {
  return store.workbooks.sheets(wb).reduce((sum, sheet) => sum + sheet.rows, 0);
}

/** Who may see a workbook: its owner, or an admin at or above the owner's node. */
function maySee(who: Who, record: WorkbookRecord): boolean {
  return record.owner_pkid === who.principal.pkid || (who.principal.role === 'admin' && isWithin(record.owner_path, who.callerPath));
}
