import { titleOf, type CatalogModel } from '../../store/catalog-store';
/** How the transaction views write ids, times and statuses. */

/** The statuses of decisions.md, in the order a transaction goes through them. */
export const STATUSES = ['Queued', 'In Progress', 'Processing', 'Success', 'Fail', 'Success With Async Failures'] as const;

/** Model types a transaction can name beyond the resource models: bulk loads and exports. */
export const TOOL_MODEL_TYPES = ['tool/BulkLoad', 'view/ExportData'] as const;
const TOOL_TITLES: ReadonlyMap<string, string> = new Map([
  ['tool/BulkLoad', 'Bulk load'],
  ['view/ExportData', 'Export'],
]);

/** What a transaction worked on, as the lists name it (Line Relation, Bulk load); the model type where nothing names it. */
export function typeTitle(models: readonly CatalogModel[], modelType: string): string {
  return TOOL_TITLES.get(modelType) ?? titleOf(models, modelType);
}

/** The first block of a UUID: enough to tell rows apart, the full id is in the title. */
export function shortId(id: string): string {
  return id.split('-')[0] ?? id;
}

/**
 * The service's times are ISO 8601 without a zone (spec): shown as written, to the second, so
 * that a time here matches the same time in a log file or an export.
 */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]}` : iso;
}

/** Time of day with milliseconds, for log entries that are often within the same second. */
export function formatClock(iso: string): string {
  const match = /T(\d{2}:\d{2}:\d{2})(\.\d{1,3})?/.exec(iso);
  return match ? `${match[1]}${match[2] ?? ''}` : iso;
}

/** How long a transaction took, or undefined while it has not finished. */
export function durationOf(start: string | null | undefined, end: string | null | undefined): string | undefined {
  if (!start || !end) return undefined;
  const ms = Date.parse(`${end}Z`) - Date.parse(`${start}Z`);
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The status pill's classes: styles.css colours `.pill.Success`, `.pill.Fail` and the running ones. */
export function pillClass(status: string): string {
  return `pill ${status}${status === 'Success With Async Failures' ? ' partial' : ''}`;
}
