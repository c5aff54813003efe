import { GridCellKind, type GridCell, type GridColumn } from '@glideapps/glide-data-grid';
import type { PlanAction, WorkbookInfo, WorkbookRow, WorkbookRowOutcome } from '../../../../main/service/contract/workbook-api';

/**
 * Narrow read-only columns the grid shows after the sheet's own: `plan` (each row's planned
 * action, once a plan exists) and `outcome` (what loading the row did, once a load ran). After,
 * not before: a grid column past the sheet's is one of these. (Each row's Excel number, filtered
 * or not, is the gutter column's: row-gutter.ts.)
 */
export type InfoKind = 'plan' | 'outcome';

export function infoKindsOf(info: WorkbookInfo | undefined): InfoKind[] {
  const kinds: InfoKind[] = [];
  if (info?.plan) kinds.push('plan');
  if (info?.load) kinds.push('outcome');
  return kinds;
}

/** A plan made on another revision than the one shown: its badges may be wrong. */
export const planIsStale = (info: WorkbookInfo | undefined): boolean =>
  info?.plan !== null && info?.plan !== undefined && info.plan.revision !== info.revision;

export function infoColumns(kinds: InfoKind[], info: WorkbookInfo | undefined): GridColumn[] {
  return kinds.map((kind) => {
    if (kind === 'plan')
      return { id: 'info-plan', title: planIsStale(info) ? 'Plan (stale)' : 'Plan', width: planIsStale(info) ? 110 : 90 };
    return { id: 'info-outcome', title: 'Outcome', width: 90 };
  });
}

/** Semi-transparent, so one set reads on the light and the dark theme alike. */
export const PLAN_COLOURS: Record<PlanAction, string> = {
  add: 'rgba(22, 163, 74, 0.28)',
  modify: 'rgba(37, 99, 235, 0.26)',
  delete: 'rgba(147, 51, 234, 0.26)',
  unchanged: 'rgba(100, 116, 139, 0.18)',
  conflict: 'rgba(245, 158, 11, 0.34)',
  error: 'rgba(220, 38, 38, 0.30)',
};

export const OUTCOME_COLOURS: Record<WorkbookRowOutcome['status'], string> = {
  loaded: 'rgba(22, 163, 74, 0.28)',
  failed: 'rgba(220, 38, 38, 0.30)',
  conflict: 'rgba(245, 158, 11, 0.34)',
};

function badge(text: string, background: string | undefined): GridCell {
  return {
    kind: GridCellKind.Text,
    data: text,
    displayData: text,
    allowOverlay: false,
    readonly: true,
    contentAlign: 'center',
    themeOverride: background ? { bgCell: background } : undefined,
  };
}

/** A row's cell of an info column; a row not read yet shows as loading. */
export function infoCell(kind: InfoKind, row: WorkbookRow | undefined, info: WorkbookInfo | undefined): GridCell {
  if (!row) return { kind: GridCellKind.Loading, allowOverlay: false };
  if (kind === 'plan') {
    // A row added since the plan has none; a stale plan's badges are shown without colour, marked "?".
    if (!row.plan) return badge('', undefined);
    return planIsStale(info) ? badge(`${row.plan.action}?`, undefined) : badge(row.plan.action, PLAN_COLOURS[row.plan.action]);
  }
  if (!row.outcome) return badge('', undefined);
  return badge(row.outcome.status, OUTCOME_COLOURS[row.outcome.status]);
}
