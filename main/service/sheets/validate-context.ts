import type { JsonObject } from '../api-types';
import type { Principal } from '../auth/principal';
import { clause, type RuleProblem } from '../domain/rules/problem';
import type { InstanceRecord } from '../store/instances-repo';
import type { Store } from '../domain/store';
import type { FieldDef, ModelDef } from '../models/types';
import type { NodeRow } from '../store/nodes-repo';
import { issueAt } from './issue-text';
import type { RowPrecheck, TemplateLookups } from './row-precheck';
import type { ParsedRow, ParsedSheet, SheetIssue } from './sheet-types';
import type { OverlayRulesView } from './overlay-rules-view';
import type { RowRef, WorkbookOverlay } from './validate-overlay';

/** Who validates: the same reach and role rules as the load that would follow. */
export interface ValidationCaller {
  principal: Principal;
  /** Dot path of the caller's node. */
  callerPath: string;
}

export interface PhoneInfo {
  pkid: string;
  path: string;
  lines: number;
}

/** Look-ups many rows repeat, remembered for one validation (CFT templates: each looked up once). */
export interface ValidationCache extends TemplateLookups {
  nodes: Map<string, NodeRow | null>;
  phones: Map<string, PhoneInfo | null>;
  /** The rules' read interface over this validation's overlay, made at its first row. */
  rules?: OverlayRulesView;
  /**
   * A bounded sample of the text the sheet's other rows hold in an issue's column, for the form
   * the sheet writes its numbers in (number-forms.ts); none when the validation keeps no sample.
   */
  columnTexts?: (check: RowCheck, issue: SheetIssue) => readonly string[];
}

/** One row under validation, and where its issues go. */
export interface RowCheck {
  store: Store;
  caller: ValidationCaller;
  overlay: WorkbookOverlay;
  sheet: ParsedSheet;
  model: ModelDef;
  row: ParsedRow;
  /** What the reader thread worked out for an added row (row-precheck.ts), if it did. */
  pre?: RowPrecheck;
  ref: RowRef;
  /** The load's default hierarchy, for rows and directives that name none. */
  defaultNode: NodeRow;
  cache: ValidationCache;
  issues: SheetIssue[];
  /**
   * What a modify or delete row works on, for a plan (workbooks/workbook-plan.ts): the stored
   * instance (undefined when an earlier row adds it) and, for a modify, its data after the row.
   */
  target?: { record?: InstanceRecord; after?: JsonObject };
}

/**
 * A row's checks in progress: the node it runs at, the field paths already found wrong (checks
 * that depend on them are skipped, so one mistake is reported once), and what the row will
 * change, recorded in the overlay only if the row ends without errors.
 */
export interface RowPlan {
  check: RowCheck;
  /** The rules' read interface, pointed at this row. */
  rules: OverlayRulesView;
  node: NodeRow;
  bad: Set<string>;
  commits: (() => void)[];
}

/** The field at a dot path (`lines.0.pattern`), if there is one. */
export function fieldAt(model: ModelDef, path: string): FieldDef | undefined {
  let fields: Record<string, FieldDef> | undefined = model.fields;
  let field: FieldDef | undefined;
  for (const segment of path.split('.')) {
    if (field?.type === 'array' && /^\d+$/.test(segment)) {
      field = field.items;
    } else {
      field = fields && Object.hasOwn(fields, segment) ? fields[segment] : undefined;
    }
    if (!field) return undefined;
    fields = field.properties;
  }
  return field;
}

/** How a message names a field: its title at the top level, its path when nested. */
export function labelOf(model: ModelDef, path: string): string {
  if (path.includes('.')) return path;
  return fieldAt(model, path)?.title ?? path;
}

/** An issue at a field path or a meta column name, in its column when the sheet has one. */
export function report(check: RowCheck, path: string, severity: SheetIssue['severity'], code: string, what: string): void {
  const column = path ? (check.row.columns[path] ?? '') : '';
  const label = path ? labelOf(check.model, path) : '';
  check.issues.push(issueAt({ sheet: check.sheet.name, row: check.row.rowNumber, column, field: path, label }, severity, code, what));
}

/** A rule's problem (domain/rules/) as an issue at its field. */
export function reportProblem(check: RowCheck, problem: RuleProblem, severity: SheetIssue['severity'] = 'error', more = ''): void {
  report(check, problem.field, severity, problem.code, clause(problem.message) + more);
}

export const hasErrors = (check: RowCheck): boolean => check.issues.some((issue) => issue.severity === 'error');
