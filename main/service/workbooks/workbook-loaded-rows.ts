import type { Store } from '../domain/store';
import { quoted } from '../sheets/issue-text';
import type { ParsedRow } from '../sheets/sheet-types';
import { hasErrors, report, type RowCheck } from '../sheets/validate-context';
import type { LoadedTarget } from '../store/workbook-runs-repo';
import type { WorkbookRecord } from '../store/workbooks-repo';
import { changesOf } from './workbook-plan';

/**
 * A row that loaded stays true to the store (issue 29, point 6). The instance it made is its
 * own, never its duplicate: validated again (an edit, an undo, a plan, a duplicate of the
 * workbook), an add row that loaded is checked as a modify of that instance, so its key taken by
 * that instance is no error and, unchanged, its plan says `unchanged`. Edited since, it says the
 * change will be loaded as a modify of that instance (a warning, LOADED_CHANGED, on the first
 * changed cell), its plan says `modify` with each change, and Load runs it as that modify
 * (workbook-spool.ts), once; a row that loaded and was not changed is never run again.
 */
export const LOADED_CHANGED = 'loaded-row-changed';

/** The loaded target of a row by its id, or undefined when it has not loaded. */
export type LoadedOf = (rowId: number) => LoadedTarget | undefined;

/**
 * How a validation finds the rows that loaded: for a whole workbook, every loaded row in one
 * query; for a few rows (an edit), each by its key. Undefined for a workbook never loaded.
 */
export function loadedLookup(store: Store, workbook: WorkbookRecord, whole: boolean): LoadedOf | undefined {
  if (workbook.load_id === null) return undefined;
  if (whole) {
    const targets = store.workbookOutcomes.loadedTargets(workbook.wb);
    return targets.size === 0 ? undefined : (rowId) => targets.get(rowId);
  }
  return (rowId) => {
    const outcome = store.workbookOutcomes.get(workbook.wb, rowId);
    return outcome?.status === 'loaded' && outcome.pkid !== null
      ? { pkid: outcome.pkid, transaction_id: outcome.transaction_id }
      : undefined;
  };
}

/**
 * Before the row's checks: a loaded add row becomes a modify of the instance it made, when that
 * instance is still there (deleted since, the row is checked as the add it is). Answers whether
 * the row is checked as loaded.
 */
export function asLoadedRow(store: Store, modelType: string, row: ParsedRow, loaded: LoadedTarget | undefined): boolean {
  if (!loaded || row.badAction !== undefined) return false;
  if (row.action === 'modify') return true;
  if (row.action !== 'add' || row.pkid !== undefined) return false;
  const record = store.instances.get(loaded.pkid);
  if (!record || record.modelType !== modelType) return false;
  row.action = 'modify';
  row.pkid = loaded.pkid;
  return true;
}

/** A loaded delete row whose instance is gone: done, nothing to check or run again. */
export const deletedAlready = (store: Store, row: ParsedRow, loaded: LoadedTarget | undefined): boolean =>
  loaded !== undefined && row.action === 'delete' && row.badAction === undefined && store.instances.get(loaded.pkid) === undefined;

const shown = (value: unknown): string =>
  value === undefined ? '(none)' : quoted(typeof value === 'string' ? value : JSON.stringify(value));

/** After the row's checks: says when the loaded row now changes its instance, and how. */
export function reportLoadedChange(check: RowCheck, loaded: LoadedTarget): void {
  const record = check.target?.record;
  if (!record || hasErrors(check)) return;
  const changes = changesOf(check.model, record.data, check.target?.after ?? {});
  if (changes.length === 0) return;
  // On the first changed cell the sheet has, so the cell edited is the one tinted.
  const field = changes.find((change) => check.row.columns[change.field] !== undefined)?.field ?? '';
  const what = changes.map((change) => `${change.field}: ${shown(change.old)} -> ${shown(change.new)}`).join(', ');
  report(
    check,
    field,
    'warning',
    LOADED_CHANGED,
    `this row is loaded (instance ${loaded.pkid}, transaction ${loaded.transaction_id}): Load will modify that instance (${what})`,
  );
}
