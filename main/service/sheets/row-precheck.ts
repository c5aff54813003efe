import type { JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import { withDefaults } from '../schema/validate';
import type { NodeRow } from '../store/nodes-repo';
import { applyTemplateRecord, type TemplateFinder } from '../templates/configuration-template';
import type { ParsedRow, ParsedSheet } from './sheet-types';
import { apiProblems, requiredProblems, valueProblems, type ValueProblem } from './validate-cells';

/**
 * The part of validating an added row that needs no other row: its CFT template applied, its
 * schema defaults filled in, and the problems of its values. A big workbook's reader thread works
 * this out beside the validator (read-thread-worker.ts), which then only checks keys, numbers,
 * phones and rules: on two cores that halves the validator's work per row. The validator uses it
 * only for a row it places at the same node; anything else (a template that cannot be applied,
 * a node an earlier row creates) it works out itself, with its issues.
 */
export interface RowPrecheck {
  /** The node the row was placed at. */
  nodePkid: string;
  /** The row's data as the load would write it (template and defaults applied). */
  data: JsonObject;
  problems: ValueProblem[];
}

/** Templates found once per name and node for a whole workbook. */
export interface TemplateLookups {
  findTemplate: TemplateFinder;
  /** The query naming each template, made once per name rather than once per row. */
  templateQueries: Map<string, URLSearchParams>;
}

export const templateName = (sheet: ParsedSheet, row: ParsedRow): string | undefined => row.template ?? sheet.directive.template;

/**
 * A payload with the template `name` applied at `node` (over `existing` for a modify); throws
 * the template's ApiError (404, or why it cannot apply).
 */
export function withTemplate(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  name: string | undefined,
  payload: JsonObject,
  lookups: TemplateLookups,
  existing?: JsonObject,
): JsonObject {
  if (name === undefined) return payload;
  let query = lookups.templateQueries.get(name);
  if (!query) lookups.templateQueries.set(name, (query = new URLSearchParams({ template_name: name })));
  return applyTemplateRecord(store, model, node, lookups.findTemplate(store, model, node, query), payload, existing);
}

/**
 * Every problem of the values a row gives (`payload`) and, when known, of the whole data the
 * instance will hold (`complete`: its required fields).
 */
export function rowValueProblems(model: ModelDef, payload: JsonObject, complete: JsonObject | undefined): ValueProblem[] {
  const problems = [...valueProblems(model, payload), ...(complete ? requiredProblems(model, complete) : [])];
  return [...problems, ...apiProblems(model, payload, problems)];
}

/** The precheck of an added row at `node`; undefined when its template cannot be applied. */
export function precheckAdd(store: Store, model: ModelDef, node: NodeRow, sheet: ParsedSheet, row: ParsedRow, lookups: TemplateLookups): RowPrecheck | undefined {
  let payload: JsonObject;
  try {
    payload = withTemplate(store, model, node, templateName(sheet, row), row.data, lookups);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
  const data = withDefaults(model, payload);
  return { nodePkid: node.pkid, data, problems: rowValueProblems(model, payload, data) };
}
