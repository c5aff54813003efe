import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import type { WorkbookSummary } from '../../renderer/src/store/workbooks-store';

/** A staged workbook as the service lists it (no sheets): a draft at Paris, owned by admin; `extra` overrides. */
export function workbookSummary(id: string, extra: Partial<WorkbookSummary> = {}): WorkbookSummary {
  return {
    id,
    name: `${id}.xlsx`,
    owner: 'admin',
    hierarchy: 'sys.hcs.Telco.Acme.Paris',
    profile: null,
    checked_against: null,
    source: 'upload',
    state: 'draft',
    revision: 7,
    validated_revision: 7,
    can_undo: false,
    can_redo: false,
    counts: { rows: 3, errors: 2, warnings: 1, rows_with_errors: 1, rows_with_warnings: 1 },
    problem: null,
    mapping: null,
    created_at: '2026-11-26T10:00:00.000000',
    updated_at: '2026-11-26T10:00:00.000000',
    plan: null,
    load: null,
    ...extra,
  };
}

/** The same with its sheets, as GET of one workbook answers. */
export const workbookInfo = (id: string, sheets: WorkbookInfo['sheets'], extra: Partial<WorkbookInfo> = {}): WorkbookInfo => ({
  ...workbookSummary(id),
  sheets,
  ...extra,
});
