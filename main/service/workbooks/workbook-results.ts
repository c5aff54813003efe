import type { Store } from '../domain/store';
import { KEY_READ, KEY_WRITE } from '../store/workbooks-repo';
import type { SheetIssues } from './staged-revalidate';
import type { FullOutcome, RowOutcome } from './staged-validator';
import { effectKey, type OverlayEffect } from './tracked-overlay';
import { keysOf } from './workbook-key-index';
import type { StoredIssue } from './staged-validator';
import type { RowValidationRecord, WorkbookIssueRecord } from '../store/workbooks-repo';

/**
 * Writes validation outcomes into the workbook's tables (the service's thread; validation only
 * reads): each row's counts, issues, and the overlay entries it reads and writes, indexed by
 * hash so an edit finds the rows it can affect. `keys`: `row` keeps that index row by row (after
 * an edit); `whole` leaves it to the full validation, which merges it whole at its end
 * (workbook-key-index.ts). A row whose outcome is what is stored already is not written again
 * (a plan or a revalidation right after a validation writes almost nothing).
 */
const sameIssues = (stored: WorkbookIssueRecord[], issues: StoredIssue[]): boolean =>
  stored.length === issues.length &&
  stored.every((old, at) => {
    const issue = issues[at];
    return (
      old.sheet_no === issue.sheet_no &&
      old.column_id === issue.column_id &&
      old.field === issue.field &&
      old.severity === issue.severity &&
      old.code === issue.code &&
      old.message === issue.message &&
      old.suggestion === issue.suggestion
    );
  });

/** Whether an outcome is what is stored for its row (`old`: the stored counts, reads and effects). */
export function sameAsStored(
  store: Store,
  wb: number,
  outcome: RowOutcome,
  old: Pick<RowValidationRecord, 'errors' | 'warnings' | 'reads' | 'effects'>,
  reads: string,
  effects: string,
): boolean {
  return (
    old.reads === reads &&
    old.effects === effects &&
    old.errors === outcome.errors &&
    old.warnings === outcome.warnings &&
    (outcome.issues.length === 0 || sameIssues(store.workbooks.rowIssues(wb, outcome.row_id), outcome.issues))
  );
}

/** What the last validation stored of a row, as a full validation reads it with the row (staged-row-reader.ts). */
export interface StoredOutcome {
  errors: number;
  warnings: number;
  /** JSON, as stored. */
  reads: string;
  effects: string;
  issues: WorkbookIssueRecord[];
}

/** Whether an outcome is what is stored for its row, read with it (a full validation's rows). */
export function sameAsRead(outcome: RowOutcome, stored: StoredOutcome): boolean {
  return (
    stored.errors === outcome.errors &&
    stored.warnings === outcome.warnings &&
    stored.reads === JSON.stringify(outcome.reads) &&
    stored.effects === JSON.stringify(outcome.effects) &&
    (outcome.issues.length === 0 || sameIssues(stored.issues, outcome.issues))
  );
}

export function writeOutcomes(store: Store, wb: number, outcomes: FullOutcome[], keys: 'row' | 'whole' = 'row'): void {
  const repo = store.workbooks;
  for (const outcome of outcomes) {
    if ('same' in outcome) continue;
    const old = repo.rowResult(wb, outcome.row_id);
    if (!old) continue;
    const reads = JSON.stringify(outcome.reads);
    const effects = JSON.stringify(outcome.effects);
    if (sameAsStored(store, wb, outcome, old, reads, effects)) continue;
    if (keys === 'row') {
      const before = keysOf(JSON.parse(old.reads) as string[], JSON.parse(old.effects) as OverlayEffect[]);
      const after = keysOf(outcome.reads, outcome.effects);
      const same = (a: number[], b: number[]): boolean => a.length === b.length && a.every((key) => b.includes(key));
      if (!same(before.reads, after.reads) || !same(before.writes, after.writes)) {
        for (const key of before.reads) if (!after.reads.includes(key)) repo.dropKey(wb, key, KEY_READ, outcome.row_id);
        for (const key of before.writes) if (!after.writes.includes(key)) repo.dropKey(wb, key, KEY_WRITE, outcome.row_id);
        for (const key of after.reads) repo.addKey(wb, key, KEY_READ, outcome.row_id);
        for (const key of after.writes) repo.addKey(wb, key, KEY_WRITE, outcome.row_id);
      }
    }
    repo.addCounts(
      wb,
      old.sheet_no,
      outcome.errors - old.errors,
      outcome.warnings - old.warnings,
      Number(outcome.errors > 0) - Number(old.errors > 0),
      Number(outcome.warnings > 0) - Number(old.warnings > 0),
    );
    repo.setRowResult(wb, {
      row_id: outcome.row_id,
      sheet_no: old.sheet_no,
      errors: outcome.errors,
      warnings: outcome.warnings,
      reads,
      effects,
    });
    repo.replaceIssues(wb, outcome.row_id, outcome.issues);
  }
}

/** A deleted row leaves the key index too. */
export function forgetRow(store: Store, wb: number, rowId: number): string[] {
  const repo = store.workbooks;
  const old = repo.rowResult(wb, rowId);
  if (!old) return [];
  const reads = JSON.parse(old.reads) as string[];
  const effects = JSON.parse(old.effects) as OverlayEffect[];
  const keys = keysOf(reads, effects);
  for (const key of keys.reads) repo.dropKey(wb, key, KEY_READ, rowId);
  for (const key of keys.writes) repo.dropKey(wb, key, KEY_WRITE, rowId);
  repo.addCounts(wb, old.sheet_no, -old.errors, -old.warnings, -Number(old.errors > 0), -Number(old.warnings > 0));
  repo.deleteRow(wb, rowId);
  return effects.map(effectKey);
}

export function writeSheetIssues(store: Store, wb: number, sheets: SheetIssues[]): void {
  for (const sheet of sheets) store.workbooks.setSheetIssues(wb, sheet.sheet_no, JSON.stringify(sheet.issues));
}
