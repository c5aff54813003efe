import type { Store } from '../domain/store';
import { issueAt } from '../sheets/issue-text';
import { columnLetters } from '../sheets/sheet-xml-scan';
import type { ValidationCaller } from '../sheets/validate-context';
import type { NodeRow } from '../store/nodes-repo';
import { streamThroughReader } from '../sheets/read-thread';
import { KEY_READ, KEY_WRITE, type WorkbookRecord, type WorkbookRowRecord } from '../store/workbooks-repo';
import { dataContexts, type SheetContext } from './staged-sheet';
import { stagedBatches, type StagedReadBatch } from './staged-row-reader';
import { StagedValidator, storedIssue, type FullOutcome, type RowOutcome, type StoredIssue } from './staged-validator';
import { effectKey, keyHash, type OverlayEffect } from './tracked-overlay';
import { KeyDiffGatherer, KeyGatherer, type KeyIndexDiff, type SortedKeys } from './workbook-key-index';
import { sameAsRead, type StoredOutcome } from './workbook-results';
import { loadedLookup } from './workbook-loaded-rows';

/**
 * Full and incremental validation of a staged workbook, as plain functions of a store (a job
 * worker's read-only connection, or the service's own). They only read: the outcomes go back to
 * the service, which writes them (workbook-results.ts).
 *
 * Incremental validation gives the full validation's result exactly. A row's result depends on
 * its cells, the store, and the overlay entries it reads; an entry's state at a row is the fold
 * of the effects of the rows before it. So: validate the edited rows, and every row that reads
 * an entry an edited row wrote before or writes now; replay the stored effects of the other
 * rows that write what those rows read; repeat while a row's effects or reads change.
 */
export interface SheetIssues {
  sheet_no: number;
  issues: StoredIssue[];
}

function sheetIssuesOf(store: Store, context: SheetContext): StoredIssue[] {
  const unlabelled = [...context.rowContext.unlabelled].map(([column, row]) =>
    issueAt(
      { sheet: context.record.name, row, column: columnLetters(column), field: '', label: `column ${columnLetters(column)}` },
      'warning',
      'unlabelled-column',
      'this column has no header, so its values are ignored: give it a header or clear it',
    ),
  );
  return [...context.headerIssues, ...unlabelled].map((issue) => storedIssue(store, context, issue));
}

/**
 * What a full validation found of the key index: every row's keys (`whole`), for the job to
 * merge with the stored index, or the difference itself (`diff`), found row by row.
 */
export type FullKeys = { whole: SortedKeys } | { diff: KeyIndexDiff };

/**
 * A workbook this big has its rows read (and prechecked) on the reader thread: a thread's start
 * costs more than it saves on a small one.
 */
const READER_FROM_ROWS = 5_000;

/**
 * The rows in load order, in batches: from the reader thread for a big workbook compared with
 * its stored outcomes (`slim`: a plan, a validation after the first), else read here. A first
 * validation writes every row's outcome, and the service's thread, not this one, sets its pace:
 * a third busy thread on two cores only slowed it (measured on 100,000 rows: 16,100 -> 13,000
 * to 14,300 rows/s, and the service's event loop p99 43 -> 180-215 ms), where a plan went from
 * 19,400 to 24,400-30,100 rows/s.
 */
async function* rowsInOrder(
  store: Store,
  workbook: WorkbookRecord,
  slim: boolean,
  node: NodeRow,
  waiting: Int32Array,
  checkFile: string | undefined,
): AsyncGenerator<StagedReadBatch> {
  const here = (): Generator<StagedReadBatch> => stagedBatches(store, workbook.wb, slim);
  const rows = store.workbooks.sheets(workbook.wb).reduce((sum, sheet) => sum + (sheet.skipped === 0 ? sheet.rows : 0), 0);
  if (!slim || store.db.memory || rows < READER_FROM_ROWS) {
    yield* here();
    return;
  }
  const input = {
    dbFile: store.db.name,
    checkFile,
    wb: workbook.wb,
    defaultNodePkid: node.pkid,
    slim,
    waiting: waiting.buffer as SharedArrayBuffer,
  };
  yield* streamThroughReader(
    (taken) => ({ type: 'staged', input: { ...input, taken } }),
    (batch) => batch as StagedReadBatch,
    here,
  );
}

/** Every row in load order, handed over in chunks; answers the sheets' own issues. */
export async function validateFull(
  store: Store,
  workbook: WorkbookRecord,
  caller: ValidationCaller,
  node: NodeRow,
  emit: (outcomes: FullOutcome[]) => Promise<void>,
  /** `checkFile`: a remote profile's mirror the rows are checked against (mirror-checks.ts), for the reader thread's prechecks. */
  options: { planning?: boolean; slimSame?: boolean; keysByRow?: boolean; checkFile?: string } = {},
): Promise<{ sheets: SheetIssues[]; keys: FullKeys }> {
  const validator = new StagedValidator(store, caller, node, options.planning === true, loadedLookup(store, workbook, true));
  // Only a workbook validated before has outcomes to compare with.
  const slim = options.slimSame === true && workbook.validated_revision !== null;
  // Row by row only from stored outcomes, and only when the stored index is theirs (keys_current).
  const byRow = slim && options.keysByRow === true ? new KeyDiffGatherer() : undefined;
  const gatherer = byRow ? undefined : new KeyGatherer();
  const contexts = new Map(dataContexts(store, workbook.wb).map((context) => [context.record.sheet_no, context]));
  // 1 while the outcomes wait for the service (staged-row-reader.ts).
  const waiting = new Int32Array(new SharedArrayBuffer(4));
  for await (const batch of rowsInOrder(store, workbook, slim, node, waiting, options.checkFile)) {
    const context = contexts.get(batch.sheet_no);
    if (!context) throw new Error(`rows of sheet ${batch.sheet_no}, which holds no data`);
    const outcomes = batch.rows.map((row) => {
      const outcome = validator.validate(context, row);
      gatherer?.add(outcome.row_id, outcome.reads, outcome.effects);
      const { reads, effects } = row;
      if (reads === undefined || effects === undefined) return outcome;
      const stored = { errors: row.errors, warnings: row.warnings, reads, effects, issues: row.issues ?? [] };
      const answer = slimmed(outcome, stored);
      if (byRow && !('same' in answer)) byRow.row(outcome.row_id, storedKeys(stored), outcome);
      return answer;
    });
    Atomics.store(waiting, 0, 1);
    await emit(outcomes);
    Atomics.store(waiting, 0, 0);
  }
  // After the rows: reading them finds the columns that have values and no header.
  const sheets = [...contexts.values()].map((context) => ({ sheet_no: context.record.sheet_no, issues: sheetIssuesOf(store, context) }));
  // Sorted here, on the job's thread: the service then writes the index in key order.
  return { sheets, keys: byRow ? { diff: byRow.diff() } : { whole: (gatherer as KeyGatherer).sorted() } };
}

/** A row's stored reads and effects, decoded (`[]` both when it was never validated). */
const storedKeys = (stored: StoredOutcome): { reads: string[]; effects: OverlayEffect[] } => ({
  reads: JSON.parse(stored.reads) as string[],
  effects: JSON.parse(stored.effects) as OverlayEffect[],
});

/** An outcome equal to the stored one, as `same` without its contents; any other as it is. */
function slimmed(outcome: RowOutcome, stored: StoredOutcome): FullOutcome {
  if (!sameAsRead(outcome, stored)) return outcome;
  return outcome.plan ? { row_id: outcome.row_id, same: true, plan: outcome.plan } : { row_id: outcome.row_id, same: true };
}

interface Known {
  record: WorkbookRowRecord;
  reads: string[];
  effects: string;
}

/** What incremental validation needs of a row: its place, cells and stored record. */
function knownRow(store: Store, wb: number, rowId: number, cache: Map<number, Known>): Known | undefined {
  let known = cache.get(rowId);
  if (!known) {
    const record = store.workbooks.row(wb, rowId);
    const result = store.workbooks.rowResult(wb, rowId);
    if (!record || !result) return undefined;
    known = { record, reads: JSON.parse(result.reads) as string[], effects: result.effects };
    cache.set(rowId, known);
  }
  return known;
}

const writeKeys = (effects: string): string[] => (JSON.parse(effects) as OverlayEffect[]).map(effectKey);

/**
 * Validates again the rows `changed` (edited cells) can affect. `gone` are the stored write keys
 * of rows that no longer take part (deleted rows): readers of them are validated again too.
 */
export function validateIncremental(
  store: Store,
  workbook: WorkbookRecord,
  caller: ValidationCaller,
  node: NodeRow,
  changed: number[],
  goneWrites: string[] = [],
): RowOutcome[] {
  const wb = workbook.wb;
  const contexts = new Map(dataContexts(store, wb).map((context) => [context.record.sheet_no, context]));
  const cache = new Map<number, Known>();
  const candidates = new Set(changed.filter((rowId) => knownRow(store, wb, rowId, cache)));
  const dirty = new Set<string>(goneWrites);
  for (const rowId of candidates) for (const key of writeKeys(cache.get(rowId)?.effects ?? '[]')) dirty.add(key);
  const needed = new Set<string>();
  const readersSeen = new Set<string>();
  for (;;) {
    for (const key of dirty) {
      if (readersSeen.has(key)) continue;
      readersSeen.add(key);
      for (const rowId of store.workbooks.rowsWithKey(wb, keyHash(key), KEY_READ))
        if (knownRow(store, wb, rowId, cache)) candidates.add(rowId);
    }
    for (const rowId of candidates) for (const key of cache.get(rowId)?.reads ?? []) needed.add(key);
    const outcomes = runPass(store, workbook, caller, node, contexts, cache, candidates, needed);
    const before = needed.size + dirty.size;
    for (const outcome of outcomes) {
      const known = cache.get(outcome.row_id) as Known;
      for (const key of outcome.reads) needed.add(key);
      if (JSON.stringify(outcome.effects) !== known.effects) {
        for (const key of [...writeKeys(known.effects), ...outcome.effects.map(effectKey)]) dirty.add(key);
      }
    }
    // Nothing new to read or to tell other rows: the pass was the answer.
    if (needed.size + dirty.size === before) return outcomes;
  }
}

/** One pass in load order: candidates validated, the other writers of what they read replayed. */
function runPass(
  store: Store,
  workbook: WorkbookRecord,
  caller: ValidationCaller,
  node: NodeRow,
  contexts: Map<number, SheetContext>,
  cache: Map<number, Known>,
  candidates: Set<number>,
  needed: Set<string>,
): RowOutcome[] {
  const wb = workbook.wb;
  const replayed = new Set<number>();
  for (const key of needed) {
    for (const rowId of store.workbooks.rowsWithKey(wb, keyHash(key), KEY_WRITE)) {
      if (!candidates.has(rowId) && knownRow(store, wb, rowId, cache)) replayed.add(rowId);
    }
  }
  const order = [...candidates, ...replayed]
    .map((rowId) => cache.get(rowId) as Known)
    .sort((a, b) => a.record.sheet_no - b.record.sheet_no || a.record.idx - b.record.idx);
  const validator = new StagedValidator(store, caller, node, false, loadedLookup(store, workbook, false));
  const outcomes: RowOutcome[] = [];
  for (const known of order) {
    const context = contexts.get(known.record.sheet_no);
    if (!context) continue;
    if (candidates.has(known.record.row_id)) outcomes.push(validator.validate(context, known.record));
    else validator.overlay.replay(JSON.parse(known.effects) as OverlayEffect[]);
  }
  return outcomes;
}
