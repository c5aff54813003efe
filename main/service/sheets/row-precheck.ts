import type { Json, JsonObject } from '../api-types';
import type { Store } from '../domain/store';
import { ApiError } from '../errors';
import type { ModelDef } from '../models/types';
import { withDefaults } from '../schema/validate';
import type { NodeRow } from '../store/nodes-repo';
import { applyTemplateRecord, type TemplateFinder } from '../templates/configuration-template';
import type { ParsedRow, ParsedSheet } from './sheet-types';
import { missingProblems, valueProblems, type ValueProblem } from './validate-cells';

/**
 * The part of validating an added row that needs no other row: its CFT template applied, its
 * schema defaults filled in, and the problems of its values. A big workbook's reader thread works
 * this out beside the validator (read-thread-worker.ts), which then only checks keys, numbers,
 * phones and rules: about a third of the validator's work a row moves to the other core. The
 * validator uses it only for a row it places at the same node; anything else (a template that
 * cannot be applied, a node an earlier row creates) it works out itself, with its issues.
 */
export interface RowPrecheck {
  /** The node the row was placed at. */
  nodePkid: string;
  /**
   * The row's data as the load would write it (template and defaults applied). As sent by the
   * reader thread with `base`: only the fields that differ from that base.
   */
  data: JsonObject;
  problems: ValueProblem[];
  /** The base `data` is a difference from (see DataBases); `baseData` brings it the first time. */
  base?: number;
  baseData?: JsonObject;
  /** Fields of the base this row does not have. */
  gone?: string[];
}

/**
 * Rows with the same template at the same node share most of their data (the template's fields
 * and the defaults): the reader thread sends it once as a base and then each row's difference,
 * about a quarter of the JSON that crosses. Bases are few (one per sheet, node and template, at
 * most MAX_BASES); past that, rows go whole.
 */
const MAX_BASES = 64;

export class DataBases {
  /** The reader's side: bases sent, by sheet, node and template. */
  private readonly byKey = new Map<string, { id: number; data: JsonObject }>();
  /** The validator's side: bases received, by number. */
  private readonly received = new Map<number, JsonObject>();

  /** The reader's side: the row's precheck with its data as a difference from its base. */
  compact(key: string, pre: RowPrecheck): RowPrecheck {
    // Written out, not `{ ...pre, base }`: a spread with keys its source lacks cost about
    // 0.45 µs on Node 20's V8, for every row.
    const { nodePkid, problems } = pre;
    const base = this.byKey.get(key);
    if (!base) {
      if (this.byKey.size >= MAX_BASES) return pre;
      const id = this.byKey.size;
      this.byKey.set(key, { id, data: pre.data });
      return { nodePkid, data: {}, problems, base: id, baseData: pre.data };
    }
    const diff: JsonObject = {};
    for (const name in pre.data) if (!sameJson(pre.data[name], base.data[name])) diff[name] = pre.data[name];
    const gone: string[] = [];
    for (const name in base.data) if (!Object.hasOwn(pre.data, name)) gone.push(name);
    return gone.length > 0 ? { nodePkid, data: diff, problems, base: base.id, gone } : { nodePkid, data: diff, problems, base: base.id };
  }

  /** The validator's side: the whole data again. A base is frozen: rows share its nested values. */
  expand(pre: RowPrecheck): RowPrecheck {
    if (pre.base === undefined) return pre;
    const known = this.received.get(pre.base);
    const base = pre.baseData ? deepFreeze(pre.baseData) : known;
    if (pre.baseData) this.received.set(pre.base, base as JsonObject);
    if (!base) throw new Error(`a precheck names base ${pre.base}, which never came`);
    const data: JsonObject = { ...base, ...pre.data };
    for (const name of pre.gone ?? []) delete data[name];
    return { nodePkid: pre.nodePkid, data, problems: pre.problems };
  }
}

function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && sameJson((a as JsonObject)[key], (b as JsonObject)[key]));
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
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
  const problems = valueProblems(model, payload);
  if (complete) for (const problem of missingProblems(model, complete)) problems.push(problem);
  return problems;
}

/** The precheck of an added row at `node`; undefined when its template cannot be applied. */
export function precheckAdd(
  store: Store,
  model: ModelDef,
  node: NodeRow,
  sheet: ParsedSheet,
  row: ParsedRow,
  lookups: TemplateLookups,
): RowPrecheck | undefined {
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
