import type { Store } from '../domain/store';
import type { ParsedRow, ParsedSheet } from '../sheets/sheet-types';
import type { PlanRecord } from '../store/workbook-runs-repo';
import type { BulkLoadRow, SpooledRow } from '../store/bulk-loads-repo';
import { newTransactionId } from '../store/ids';
import type { NodeRow } from '../store/nodes-repo';
import type { WorkbookRecord } from '../store/workbooks-repo';
import { dataContexts, parseStagedRow, rowNumberOf } from './staged-sheet';
import { hasPlacedCell } from './staged-validator';
import { parseCells } from './workbook-cells';
import { LOADED_CHANGED } from './workbook-loaded-rows';

/**
 * A staged workbook's rows into a bulk load's spool, as the file reader would have read them,
 * each carrying its workbook row id (its outcome goes back there) and, when the plan is of the
 * current revision, the version of the target the plan saw. Rows that loaded already are never
 * spooled again (unless edited since: then once more, as the modify of their instance): that,
 * and outcomes written in the commit of each row's own batch, is what keeps a row from loading
 * twice across retries and kills.
 *
 * Spooled in chunks, each its own commit, with the event loop free between them; the load stays
 * `reading` until `ready`, and a `reading` load is dropped at the next start if the process dies.
 */
const CHUNK = 1000;

export type SpoolMode = 'all' | 'failed';

export interface SpooledWorkbook {
  load: BulkLoadRow;
  /** Rows spooled for this load. */
  rows: number;
  /** Rows of the workbook that have an action (what a complete load loads). */
  total: number;
  /** Loaded rows spooled again, as the modify of their instance their change is: validated again once loaded. */
  reruns: number[];
}

/** What the plan saw of a row it found clean: its target's version, or (an add) that its key was free. */
function expectationOf(plan: PlanRecord): ParsedRow['expect'] {
  if (plan.action === 'add') return { pkid: '', version: '' };
  if (plan.action === 'error' || plan.action === 'conflict' || !plan.target_pkid || !plan.version) return undefined;
  return { pkid: plan.target_pkid, version: plan.version };
}

/** Validation found the loaded row changed since its load (workbook-loaded-rows.ts): it says so in a warning. */
function changedSinceLoad(store: Store, wb: number, row: { row_id: number; warnings: number }): boolean {
  return row.warnings > 0 && store.workbooks.rowIssues(wb, row.row_id).some((issue) => issue.code === LOADED_CHANGED);
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function spoolWorkbook(
  store: Store,
  record: WorkbookRecord,
  username: string,
  node: NodeRow,
  mode: SpoolMode,
  /** What a revert workbook sets on each row (workbook-runs.ts `RevertHooks`). */
  adjust?: (row: ParsedRow) => void,
): Promise<SpooledWorkbook> {
  const loadId = newTransactionId();
  const planned = record.plan_revision === record.revision;
  store.bulkLoads.begin({ load_id: loadId, upload_id: '', file_name: record.name, hierarchy_pkid: node.pkid, username });
  const spool = store.db.transaction((rows: SpooledRow[]) => store.bulkLoads.spool(loadId, rows));
  const sheets: ParsedSheet[] = [];
  let seq = 0;
  let total = 0;
  const reruns: number[] = [];
  try {
    for (const context of dataContexts(store, record.wb)) {
      const sheetIndex = sheets.length;
      sheets.push({ ...context.parsed, rows: [] });
      for (let skip = 0; ; skip += CHUNK) {
        const page = store.workbooks.page(record.wb, context.record.sheet_no, skip, CHUNK);
        const rows: SpooledRow[] = [];
        for (const stagedRow of page) {
          const cells = parseCells(stagedRow.cells);
          if (!hasPlacedCell(context, cells)) continue;
          total += 1;
          const outcome = store.workbookOutcomes.get(record.wb, stagedRow.row_id);
          // A loaded row runs again only as the modify of its instance that its change now is.
          const rerun = outcome?.status === 'loaded' && changedSinceLoad(store, record.wb, stagedRow);
          if ((outcome?.status === 'loaded' && !rerun) || (mode === 'failed' && !outcome)) continue;
          const { row } = parseStagedRow(context, rowNumberOf(context.record, stagedRow.idx), cells);
          if (rerun) reruns.push(stagedRow.row_id);
          if (rerun && outcome.pkid !== null && row.action === 'add') {
            row.action = 'modify';
            row.pkid = outcome.pkid;
          }
          row.stagedRow = stagedRow.row_id;
          const plan = planned ? store.workbookPlan.get(record.wb, stagedRow.row_id) : undefined;
          const expect = plan && expectationOf(plan);
          if (expect) row.expect = expect;
          adjust?.(row);
          rows.push({ seq, sheet: sheetIndex, row: JSON.stringify(row) });
          seq += 1;
        }
        if (rows.length > 0) spool(rows);
        if (page.length < CHUNK) break;
        await turn();
      }
    }
    store.bulkLoads.ready(loadId, JSON.stringify(sheets), seq);
  } catch (error) {
    store.db.transaction(() => store.bulkLoads.remove(loadId))();
    throw error;
  }
  const load = store.bulkLoads.get(loadId);
  if (!load) throw new Error('a spooled workbook load is gone');
  return { load, rows: seq, total, reruns };
}
