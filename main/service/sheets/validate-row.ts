import { valueAt } from './write-cells';
import type { JsonObject } from '../api-types';
import { businessKeyOf } from '../domain/business-key';
import { accessPathOf } from '../domain/guards';
import { mergeData } from '../domain/instance-ops';
import { ApiError } from '../errors';
import { withDefaults } from '../schema/validate';
import { META_NAMES } from './header-resolve';
import { quoted } from './issue-text';
import { restoreNumberForms } from './number-forms';
import { checkReferenceNames } from './reference-names';
import type { RowAction } from './sheet-types';
import { rowValueProblems, templateName, withTemplate } from './row-precheck';
import { valueProblems, type ValueProblem } from './validate-cells';
import { hasErrors, report, type RowCheck, type RowPlan } from './validate-context';
import { keyTaken } from './validate-keys';
import { rulesViewOf } from './overlay-rules-view';
import { MODEL_RULES } from './validate-rules';
import { findTarget, mayChangeAt, rowNode } from './validate-target';

/**
 * One row, as the load would run it: where (node, reach, role), with what data (the CFT
 * template applied first, so the values it fills in are checked too), against what (the target
 * of a modify or delete), and what it would take (keys, numbers, a line on a phone). Nothing is
 * written: what the row would change goes to the overlay, and only when the row is clean.
 */
function templated(plan: RowPlan, payload: JsonObject, existing?: JsonObject): JsonObject {
  const { check } = plan;
  const name = templateName(check.sheet, check.row);
  if (name === undefined) return payload;
  try {
    return withTemplate(check.store, check.model, plan.node, name, payload, check.cache, existing);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const at = check.row.template !== undefined ? META_NAMES.template : '';
    const where = at ? '' : ' (from the directive in cell A1)';
    if (error.httpCode === 404) {
      report(
        check,
        at,
        'error',
        'template-not-found',
        `CFT template ${quoted(name)}${where} was not found at ${plan.node.path} or above: check its name, or create it first`,
      );
    } else {
      report(
        check,
        at,
        'error',
        'template-failed',
        `CFT template ${quoted(name)}${where} cannot be applied: ${error.message.replace(/\.$/, '')}`,
      );
    }
    return payload;
  }
}

function reportProblems(plan: RowPlan, problems: ValueProblem[]): void {
  if (problems.length === 0) return;
  const { check } = plan;
  const template = check.row.template ?? check.sheet.directive.template;
  // A field already reported (its cell could not be read, say) is not reported again as missing.
  const known = new Set(plan.bad);
  for (const problem of problems) {
    const { field } = problem;
    if (known.has(field)) continue;
    const inSheet = check.row.columns[field] !== undefined && valueAt(check.row.data, field) !== undefined;
    let what = problem.message;
    if (problem.code === 'required')
      what += check.row.columns[field] ? ' for this row' : ': add a column for it, or a CFT template that fills it in';
    else if (!inSheet && template !== undefined) what += ` (the value comes from CFT template ${quoted(template)})`;
    report(check, field, 'error', problem.code, what);
    plan.bad.add(field).add(field.split('.')[0]);
  }
}

function checkValues(plan: RowPlan, payload: JsonObject, complete: JsonObject | undefined): void {
  reportProblems(plan, rowValueProblems(plan.check.model, payload, complete));
}

/** The row's data and value problems: from the reader thread's precheck when it placed the row here, else worked out now. */
function addedData(plan: RowPlan): JsonObject {
  const { check } = plan;
  if (check.pre?.nodePkid === plan.node.pkid) {
    reportProblems(plan, check.pre.problems);
    return check.pre.data;
  }
  const payload = templated(plan, check.row.data);
  const data = withDefaults(check.model, payload);
  checkValues(plan, payload, data);
  return data;
}

function validateAdd(plan: RowPlan): void {
  const { check } = plan;
  const data = addedData(plan);
  if (!check.model.businessKey.fields.some((field) => plan.bad.has(field)) && keyTaken(plan, check.model, data)) {
    check.model.businessKey.fields.forEach((field) => plan.bad.add(field));
  }
  MODEL_RULES[check.model.modelType]?.add?.(plan, data);
}

function validateModify(plan: RowPlan): void {
  const { check } = plan;
  const target = findTarget(check, plan.node);
  if (!target) return checkValues(plan, check.row.data, undefined);
  const record = target.kind === 'stored' ? target.record : undefined;
  if (record) {
    if (!mayChangeAt(check, accessPathOf(check.store, record), '')) return;
    plan.node = check.store.nodes.get(record.hierarchyPkid) ?? plan.node;
  }
  const payload = templated(plan, check.row.data, record?.data);
  const merged = record ? mergeData(record.data, payload) : undefined;
  check.target = { record, after: merged ?? payload };
  checkValues(plan, payload, merged);
  if (record && merged && !check.model.businessKey.fields.some((field) => plan.bad.has(field))) {
    const key = businessKeyOf(check.model, merged, plan.node.pkid);
    if (key !== businessKeyOf(check.model, record.data, plan.node.pkid)) keyTaken(plan, check.model, merged, record.pkid, undefined, key);
  }
  MODEL_RULES[check.model.modelType]?.modify?.(plan, record, merged ?? payload);
}

function validateDelete(plan: RowPlan): void {
  const { check } = plan;
  const target = findTarget(check, plan.node);
  if (!target) return;
  if (target.kind === 'stored' && !mayChangeAt(check, accessPathOf(check.store, target.record), '')) return;
  check.target = { record: target.kind === 'stored' ? target.record : undefined };
  MODEL_RULES[check.model.modelType]?.remove?.(plan, target);
  plan.commits.push(() => {
    check.overlay.countDelete();
    if (target.kind === 'stored') check.overlay.markGone(target.record.pkid, check.ref);
    else check.overlay.dropAdded(check.model.modelType, businessKeyOf(check.model, check.row.data, plan.node.pkid), check.ref);
  });
}

/** Validates one row into `check.issues`; answers the action it would run, or null when it has none. */
export function validateRow(check: RowCheck): RowAction | null {
  const { row } = check;
  const node = row.badAction === undefined ? rowNode(check) : undefined;
  const reach = row.hierarchy !== undefined ? META_NAMES.hierarchy : '';
  if (!node || !mayChangeAt(check, node.path, reach)) {
    reportProblems(
      { check, rules: rulesViewOf(check), node: check.defaultNode, bad: new Set(), commits: [] },
      valueProblems(check.model, row.data),
    );
    return row.badAction === undefined ? row.action : null;
  }
  // Fields whose cells could not be read (most rows have no issue yet: nothing to sift).
  const bad = new Set<string>();
  for (const issue of check.issues) if (issue.severity === 'error' && issue.field !== '') bad.add(issue.field);
  const plan: RowPlan = { check, rules: rulesViewOf(check), node, bad, commits: [] };
  if (row.action === 'add') validateAdd(plan);
  else if (row.action === 'modify') validateModify(plan);
  else validateDelete(plan);
  restoreNumberForms(check, plan.rules, plan.node);
  if (row.action !== 'delete') checkReferenceNames(check);
  if (!hasErrors(check)) plan.commits.forEach((commit) => commit());
  return row.action;
}
