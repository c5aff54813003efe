import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import type { WorkbookUsage } from '../store/workbooks-repo';

/**
 * How much one user may keep staged (issue 30, finding 7). A staged row costs about 1 KB of the
 * workspace file with its issues and history; without a bound one user's workbooks could fill the
 * disk for everyone. The defaults leave room for three workbooks at the 1,000,000-row limit.
 */
export interface WorkbookQuota {
  /** Workbooks one user keeps, failed ones included (they are listed until deleted). */
  workbooks: number;
  /** Stored rows across them (rows that hold a value: a sparse file costs its rows, not its extent). */
  rows: number;
}

export const DEFAULT_WORKBOOK_QUOTA: WorkbookQuota = { workbooks: 50, rows: 3_000_000 };

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The workbooks worth deleting first, as the fault's details say them: the biggest, then the oldest. */
function candidates(usage: WorkbookUsage[], byRows: boolean): WorkbookUsage[] {
  const sorted = byRows ? usage : [...usage].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return sorted.slice(0, 5);
}

function refuse(usage: WorkbookUsage[], message: string, byRows: boolean): ApiError {
  const listed = candidates(usage, byRows);
  return new ApiError(
    409,
    'workbook-quota',
    `${message} Delete workbooks you no longer need (DELETE /workstation/workbooks/<id>/, or Delete in the Workbooks list), such as ${listed
      .map((entry) => `'${entry.name}' (${fmt(entry.rows)} rows, ${entry.state})`)
      .join(', ')}, and try again.`,
    listed.map((entry) => ({
      field: entry.id,
      message: `'${entry.name}': ${fmt(entry.rows)} rows, ${entry.state}, staged ${entry.created_at}`,
    })),
  );
}

/** Refuses a new workbook (staged, duplicated) when its maker keeps the most allowed already, or as many rows. */
export function checkNewWorkbook(store: Store, quota: WorkbookQuota, ownerPkid: string, rows = 0): void {
  const usage = store.workbooks.usageOf(ownerPkid);
  if (usage.length >= quota.workbooks)
    throw refuse(usage, `You keep ${fmt(usage.length)} staged workbooks, the most one user may keep (${fmt(quota.workbooks)}).`, false);
  checkRows(store, quota, ownerPkid, Math.max(rows, 1), usage);
}

/**
 * Refuses `adding` rows more than the owner's workbooks store now. A workbook being staged counts
 * the row ids it took so far; an edit checks after its rows are in (adding 0), inside its
 * transaction, which the refusal rolls back.
 */
export function checkRows(store: Store, quota: WorkbookQuota, ownerPkid: string, adding: number, known?: WorkbookUsage[]): void {
  const usage = known ?? store.workbooks.usageOf(ownerPkid);
  const stored = usage.reduce((sum, entry) => sum + entry.rows, 0);
  if (stored + adding > quota.rows)
    throw refuse(
      usage,
      `Your staged workbooks would hold ${fmt(stored + adding)} rows, more than the ${fmt(quota.rows)} rows one user may keep.`,
      true,
    );
}
