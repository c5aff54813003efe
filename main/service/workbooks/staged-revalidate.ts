import type { Store } from '../domain/store';
import { issueAt } from '../sheets/issue-text';
import { columnLetters } from '../sheets/sheet-xml-scan';
import type { ValidationCaller } from '../sheets/validate-context';
import type { NodeRow } from '../store/nodes-repo';
import { KEY_READ, KEY_WRITE, type RowValidationRecord, type WorkbookRecord, type WorkbookRowRecord } from '../store/workbooks-repo';
import { sheetContext, type SheetContext } from './staged-sheet';
import { StagedValidator, storedIssue, type RowOutcome, type StoredIssue } from './staged-validator';
import { effectKey, keyHash, type OverlayEffect } from './tracked-overlay';
import { KeyDiffGatherer, KeyGatherer, type KeyIndexDiff, type SortedKeys } from './workbook-key-index';
import { sameAsStored } from './workbook-results';

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
/** Rows validated and handed over at a time: the service writes each chunk in one transaction of about 10 ms. */
const PAGE = 250;

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

export function dataContexts(store: Store, wb: number): SheetContext[] {
  return store.workbooks
    .sheets(wb)
    .filter((sheet) => sheet.skipped === 0)
    .map((sheet) => sheetContext(sheet));
}

/**
 * What a full validation found of the key index: every row's keys (`whole`), for the job to
 * merge with the stored index, or the difference itself (`diff`), found row by row.
 */
export type FullKeys = { whole: SortedKeys } | { diff: KeyIndexDiff };

/** Every row in load order, handed over in chunks; answers the sheets' own issues. */
export async function validateFull(
  store: Store,
  workbook: WorkbookRecord,
  caller: ValidationCaller,
  node: NodeRow,
  emit: (outcomes: RowOutcome[]) => Promise<void>,
  options: { planning?: boolean; slimSame?: boolean; keysByRow?: boolean } = {},
): Promise<{ sheets: SheetIssues[]; keys: FullKeys }> {
  const validator = new StagedValidator(store, caller, node, options.planning === true);
  const sheets: SheetIssues[] = [];
  // Only a workbook validated before has outcomes to compare with.
  const slim = options.slimSame === true && workbook.validated_revision !== null;
  // Row by row only from stored outcomes, and only when the stored index is theirs (keys_current).
  const byRow = slim && options.keysByRow === true ? new KeyDiffGatherer() : undefined;
  const gatherer = byRow ? undefined : new KeyGatherer();
  for (const context of dataContexts(store, workbook.wb)) {
    for (let skip = 0; ; skip += PAGE) {
      const rows = slim
        ? store.workbooks.pageWithResults(workbook.wb, context.record.sheet_no, skip, PAGE)
        : store.workbooks.page(workbook.wb, context.record.sheet_no, skip, PAGE);
      if (rows.length > 0) {
        const outcomes = rows.map((row: WorkbookRowRecord & { reads?: string; effects?: string }) => {
          const outcome = validator.validate(context, row);
          gatherer?.add(outcome.row_id, outcome.reads, outcome.effects);
          const { reads, effects } = row;
          if (reads === undefined || effects === undefined) return outcome;
          const answer = slimmed(store, workbook.wb, outcome, { ...row, reads, effects });
          if (byRow && !answer.same) byRow.row(outcome.row_id, storedKeys(reads, effects), outcome);
          return answer;
        });
        await emit(outcomes);
      }
      if (rows.length < PAGE) break;
    }
    sheets.push({ sheet_no: context.record.sheet_no, issues: sheetIssuesOf(store, context) });
  }
  // Sorted here, on the job's thread: the service then writes the index in key order.
  return { sheets, keys: byRow ? { diff: byRow.diff() } : { whole: (gatherer as KeyGatherer).sorted() } };
}

/** A row's stored reads and effects (`[]` both when it was never validated). */
const storedKeys = (reads: string, effects: string): { reads: string[]; effects: OverlayEffect[] } => ({
  reads: JSON.parse(reads) as string[],
  effects: JSON.parse(effects) as OverlayEffect[],
});

/** An outcome equal to the stored one, as `same` without its contents; any other as it is. */
function slimmed(
  store: Store,
  wb: number,
  outcome: RowOutcome,
  stored: Pick<RowValidationRecord, 'errors' | 'warnings' | 'reads' | 'effects'>,
): RowOutcome {
  if (!sameAsStored(store, wb, outcome, stored, JSON.stringify(outcome.reads), JSON.stringify(outcome.effects))) return outcome;
  const same: RowOutcome = {
    row_id: outcome.row_id,
    action: outcome.action,
    errors: 0,
    warnings: 0,
    issues: [],
    reads: [],
    effects: [],
    same: true,
  };
  if (outcome.plan) same.plan = outcome.plan;
  return same;
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
  const validator = new StagedValidator(store, caller, node);
  const outcomes: RowOutcome[] = [];
  for (const known of order) {
    const context = contexts.get(known.record.sheet_no);
    if (!context) continue;
    if (candidates.has(known.record.row_id)) outcomes.push(validator.validate(context, known.record));
    else validator.overlay.replay(JSON.parse(known.effects) as OverlayEffect[]);
  }
  return outcomes;
}
