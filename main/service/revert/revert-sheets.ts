import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { requireModel } from '../models/registry';
import { draft03Schema } from '../schema/draft03';
import type { InstanceChange } from '../store/change-journal';
import type { RevertTarget } from '../store/reverts-repo';
import { cellValueOf, directiveText, valueAt, type CellValue } from '../sheets/write-cells';
import { arrayWidths, META, sheetColumns, type SheetColumn } from '../sheets/write-columns';
import type { SheetSpec } from '../sheets/write-workbook';
import { stageSheets, type StageChunk } from '../workbooks/stage-file';
import { RevertSteps, type RevertStep } from './revert-steps';

/**
 * The revert of a load as the sheets of a staged workbook, on a job worker (the service's thread
 * never reads a load's rows): its rows' changes read in pages, their inverse rows
 * (revert-steps.ts) made into sheets in the directive layout, a sheet for each run of rows of one
 * model, in the order they must run, and handed over as staging hands over a file's
 * (workbooks/stage-file.ts), never written to a file and read back. With them, each target and
 * the version the load left it at (`targets`), which the service keeps beside the workbook.
 */
export interface RevertStageInput {
  originalId: string;
}

/**
 * The targets, handed over in chunks after the sheets (a 100,000-row revert's are about 150 MB of
 * text: as one result, the service's thread would take them in one piece).
 */
export interface RevertTargetsChunk {
  type: 'targets';
  targets: RevertTarget[];
}

export interface RevertStageResult {
  rows: number;
  sheets: number;
  /** Rows of the load that succeeded with no record of what they changed: they cannot be reverted. */
  unrecorded: number;
  /** Rows of the load that failed (nothing to revert). */
  failed: number;
}

const PAGE = 1000;
const TARGETS_A_CHUNK = 500;

export async function stageRevert(
  store: Store,
  input: RevertStageInput,
  emit: (chunk: StageChunk | RevertTargetsChunk) => Promise<void>,
): Promise<RevertStageResult> {
  const collected = new RevertSteps();
  for (let after = 0; ;) {
    const page = store.changes.children(input.originalId, after, PAGE);
    for (const child of page) {
      const changes = child.changes === null ? null : (JSON.parse(child.changes) as InstanceChange[]);
      collected.add({ id: child.id, status: child.status, resourcePkid: child.resource_pkid, changes });
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].id;
  }
  const steps = collected.steps();
  const sheets = sheetsOf(store, steps);
  await stageSheets(sheets, emit);
  for (let from = 0; from < steps.length; from += TARGETS_A_CHUNK)
    await emit({ type: 'targets', targets: steps.slice(from, from + TARGETS_A_CHUNK).map(targetOf) });
  return {
    rows: steps.length,
    sheets: sheets.length,
    unrecorded: collected.unrecorded,
    failed: collected.failed,
  };
}

function targetOf(step: RevertStep): RevertTarget {
  return {
    pkid: step.pkid,
    model_type: step.modelType,
    recreate: step.recreate ? 1 : 0,
    shared: step.shared ? 1 : 0,
    after_version: step.afterVersion,
    after: step.after === null ? null : JSON.stringify(step.after),
    restore: JSON.stringify(step.restore),
  };
}

/** Consecutive steps of one model make one sheet; its name says its place and model ("2 LineRelation"). */
function sheetsOf(store: Store, steps: RevertStep[]): SheetSpec[] {
  const runs: RevertStep[][] = [];
  for (const step of steps) {
    const last = runs[runs.length - 1];
    if (last && last[0].modelType === step.modelType) last.push(step);
    else runs.push([step]);
  }
  const paths = new Map<string, string>();
  const pathOf = (pkid: string): string => {
    let path = paths.get(pkid);
    // A node gone since is named by its pkid: the row's validation then says it was not found.
    if (path === undefined) paths.set(pkid, (path = store.nodes.get(pkid)?.path ?? pkid));
    return path;
  };
  return runs.map((run, index) => sheetOf(run, `${index + 1} ${run[0].modelType.split('/').pop() ?? ''}`, pathOf));
}

function sheetOf(steps: RevertStep[], name: string, pathOf: (pkid: string) => string): SheetSpec {
  const model = requireModel(steps[0].modelType);
  const widths = arrayWidths(
    model,
    steps.map((step) => step.data),
  );
  const look = { schema: draft03Schema(model), groups: [] };
  // A delete shows what it deletes by its key and summary, the fields a person knows it by: a
  // sheet of deletes only has those columns (a fifth of a line relation's, and of the cells to stage).
  const shown = new Set([...model.businessKey.fields, ...model.summaryAttrs]);
  const all = sheetColumns(model, look, { dropHidden: false, writeOnly: false, widths });
  const deletesOnly = steps.every((step) => step.action === 'delete');
  const columns = deletesOnly ? all.filter((column) => column.path === undefined || shown.has(column.path.split('.')[0])) : all;
  const directive = directiveText({ entity: model.modelType, parallel: false, evaluateMacros: false });
  return { name: name.slice(0, 31), directive, columns, rows: rowsOf(columns, steps, { pathOf, shown }) };
}

interface CellContext {
  pathOf: (pkid: string) => string;
  shown: ReadonlySet<string>;
}

function* rowsOf(columns: SheetColumn[], steps: RevertStep[], context: CellContext): Generator<CellValue[]> {
  for (const step of steps) yield columns.map((column) => cellOf(column, step, context));
}

function cellOf(column: SheetColumn, step: RevertStep, { pathOf, shown }: CellContext): CellValue {
  if (column.path !== undefined) {
    if (step.action === 'delete' && !shown.has(column.path.split('.')[0])) return null;
    return cellValueOf(valueAt(step.data as JsonObject, column.path));
  }
  if (column.name === META.hierarchy) return pathOf(step.hierarchyPkid);
  if (column.name === META.action) return step.action;
  if (column.name === META.pkid) return step.pkid;
  return null;
}
