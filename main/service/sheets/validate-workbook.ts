import type { Store } from '../domain/store';
import { requireModel } from '../models/registry';
import type { ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';
import { NumberSample } from './sheet-number-forms';
import { templateCache } from '../templates/configuration-template';
import { SHEET_LIMITS } from './limits';
import type { SheetEvent } from './read-workbook';
import { streamWorkbookAhead } from './read-thread';
import { DataBases, type RowPrecheck } from './row-precheck';
import type { ParsedRow, ParsedSheet, ParsedWorkbook, RowAction, SheetIssue } from './sheet-types';
import type { RowCheck, ValidationCache, ValidationCaller } from './validate-context';
import { WorkbookOverlay } from './validate-overlay';
import { validateRow } from './validate-row';

/**
 * Validation of a whole workbook without loading it: the answer of
 * `POST /api/tool/BulkLoad/?method=validate` (decisions.md), with every issue found in one pass
 * and, per row, the change the load would make. Rows are taken one at a time from the streaming
 * reader; what is kept is the answer itself and the overlay of keys, never the rows.
 */
/** An issue in the answer: its sheet is the entry it is listed under. */
export type ValidationIssue = Omit<SheetIssue, 'sheet'>;

export interface RowPrediction {
  row: number;
  /** What the load would do with the row; null when its Action cell is not one. */
  action: RowAction | null;
  status: 'ok' | 'warning' | 'error';
}

export interface SheetValidation {
  name: string;
  model_type: string;
  rows: RowPrediction[];
  issues: ValidationIssue[];
}

export interface WorkbookValidation {
  /** True when no row has an error: the load would run every row. */
  success: boolean;
  sheets: SheetValidation[];
  summary: { errors: number; warnings: number; add: number; modify: number; delete: number };
}

export class WorkbookValidator {
  private readonly overlay = new WorkbookOverlay();
  /** The reader thread's precheck bases (row-precheck.ts). */
  private readonly bases = new DataBases();
  /** The directory numbers the rows so far hold as text, for the form a sheet writes them in. */
  private readonly numbers = new NumberSample();
  private readonly cache: ValidationCache = {
    nodes: new Map(),
    phones: new Map(),
    findTemplate: templateCache(),
    templateQueries: new Map(),
    columnTexts: (check, issue) => this.numbers.of(check.sheet.name, issue.field),
  };
  private readonly sheets: SheetValidation[] = [];
  private current?: { sheet: ParsedSheet; model: ModelDef; out: SheetValidation };
  private listed = 0;
  private readonly summary = { errors: 0, warnings: 0, add: 0, modify: 0, delete: 0 };

  constructor(
    private readonly store: Store,
    private readonly caller: ValidationCaller,
    private readonly defaultNode: NodeRow,
  ) {}

  consume(event: SheetEvent): void {
    if (event.type === 'sheet') {
      const out: SheetValidation = { name: event.sheet.name, model_type: event.sheet.modelType, rows: [], issues: [] };
      this.sheets.push(out);
      this.current = { sheet: event.sheet, model: requireModel(event.sheet.modelType), out };
    } else if (event.type === 'issues') {
      this.addIssues(event.issues);
    } else {
      this.addRow(event.row, event.issues, event.pre && this.bases.expand(event.pre));
    }
  }

  private addRow(row: ParsedRow, readIssues: SheetIssue[], pre?: RowPrecheck): void {
    if (!this.current) return;
    const { sheet, model, out } = this.current;
    const check: RowCheck = {
      store: this.store,
      caller: this.caller,
      overlay: this.overlay,
      sheet,
      model,
      row,
      pre,
      ref: { sheet: sheet.name, row: row.rowNumber },
      defaultNode: this.defaultNode,
      cache: this.cache,
      issues: [...readIssues],
    };
    const action = validateRow(check);
    this.numbers.note(sheet.name, model, row, check.issues);
    const status = check.issues.some((issue) => issue.severity === 'error') ? 'error' : check.issues.length > 0 ? 'warning' : 'ok';
    out.rows.push({ row: row.rowNumber, action, status });
    if (action) this.summary[action] += 1;
    this.addIssues(check.issues);
  }

  private addIssues(issues: SheetIssue[]): void {
    for (const issue of issues) {
      this.summary[issue.severity === 'error' ? 'errors' : 'warnings'] += 1;
      if (this.listed >= SHEET_LIMITS.listedIssues || !this.current) continue;
      this.listed += 1;
      const { row, column, field, severity, code, message } = issue;
      this.current.out.issues.push({ row, column, field, severity, code, message });
    }
  }

  result(): WorkbookValidation {
    const total = this.summary.errors + this.summary.warnings;
    const last = this.sheets[this.sheets.length - 1];
    if (total > this.listed && last) {
      last.issues.push({
        row: 0,
        column: '',
        field: '',
        severity: 'warning',
        code: 'issues-not-listed',
        message: `Only the first ${this.listed.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} issues are listed: correct these and validate again.`,
      });
    }
    return { success: this.summary.errors === 0, sheets: this.sheets, summary: { ...this.summary } };
  }
}

/** Validates an uploaded workbook, streaming it: the route's entry point. */
export async function validateWorkbookFile(
  store: Store,
  caller: ValidationCaller,
  defaultNode: NodeRow,
  path: string,
  fileName: string,
): Promise<WorkbookValidation> {
  const validator = new WorkbookValidator(store, caller, defaultNode);
  // A reader thread, if the file is big enough for one, prechecks added rows from the same file.
  const precheck = store.db.memory ? undefined : { dbFile: store.db.name, defaultNodePkid: defaultNode.pkid };
  for await (const events of streamWorkbookAhead(path, fileName, {}, precheck)) for (const event of events) validator.consume(event);
  return validator.result();
}

/** Validates a workbook already read whole (readWorkbook()): the same answer as from the file. */
export function validateWorkbook(
  store: Store,
  caller: ValidationCaller,
  defaultNode: NodeRow,
  workbook: ParsedWorkbook,
): WorkbookValidation {
  const validator = new WorkbookValidator(store, caller, defaultNode);
  const byRow = new Map<string, SheetIssue[]>();
  const place = (sheet: string, row: number): string => `${sheet}\u0000${row}`;
  const rowKeys = new Set(workbook.sheets.flatMap((sheet) => sheet.rows.map((row) => place(sheet.name, row.rowNumber))));
  for (const issue of workbook.issues) {
    const key = rowKeys.has(place(issue.sheet, issue.row)) ? place(issue.sheet, issue.row) : place(issue.sheet, -1);
    const list = byRow.get(key);
    if (list) list.push(issue);
    else byRow.set(key, [issue]);
  }
  for (const sheet of workbook.sheets) {
    validator.consume({ type: 'sheet', sheet });
    validator.consume({ type: 'issues', issues: byRow.get(place(sheet.name, -1)) ?? [] });
    for (const row of sheet.rows) validator.consume({ type: 'row', row, issues: byRow.get(place(sheet.name, row.rowNumber)) ?? [] });
  }
  return validator.result();
}
