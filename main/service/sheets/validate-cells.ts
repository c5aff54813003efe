import { isJsonObject, type Json, type JsonObject } from '../api-types';
import type { FieldDef, FieldType, ModelDef } from '../models/types';
import { dataFaults, patternOf } from '../schema/validate';
import { quoted } from './issue-text';

/**
 * Every problem of a row's values at once, each with its field path and a code (required,
 * wrong-type, bad-pattern, too-long, not-a-choice...), where schema/validate.ts stops at the
 * first failing payload. The API's own validation then runs as a safety net: whatever it would
 * refuse and these checks missed is still reported, so a clean row is one the load accepts.
 */
export interface ValueProblem {
  path: string;
  code: string;
  what: string;
}

const typesOf = (field: FieldDef): FieldType[] => (Array.isArray(field.type) ? field.type : [field.type]);

function matches(type: FieldType, value: Json): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'boolean') return typeof value === 'boolean';
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  if (type === 'object') return isJsonObject(value);
  if (type === 'array') return Array.isArray(value);
  return value === null;
}

const TYPE_WORDS: Record<FieldType, string> = {
  string: 'text',
  boolean: 'TRUE or FALSE',
  integer: 'a whole number',
  number: 'a number',
  object: 'an object',
  array: 'a list',
  null: 'empty',
};

function checkText(field: FieldDef, value: string, path: string, out: ValueProblem[]): void {
  if (value === '') return;
  if (field.choices && !field.choices.some((choice) => choice.value === value)) {
    out.push({
      path,
      code: 'not-a-choice',
      what: `${quoted(value)} is not one of the allowed values: ${field.choices.map((choice) => choice.value).join(', ')}`,
    });
    return;
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    out.push({
      path,
      code: 'too-long',
      what: `${quoted(value)} is ${value.length} characters long; at most ${field.maxLength} are allowed`,
    });
  }
  if (field.minLength !== undefined && value.length < field.minLength) {
    out.push({
      path,
      code: 'too-short',
      what: `${quoted(value)} is ${value.length} characters long; at least ${field.minLength} are needed`,
    });
  }
  if (field.pattern && patternOf(field)?.test(value) === false) {
    const what =
      field.format === 'directory-number'
        ? `${quoted(value)} is not a directory number: use digits, *, # or X, with an optional leading + and no spaces`
        : `${quoted(value)} does not have the expected form (${field.pattern})`;
    out.push({ path, code: 'bad-pattern', what });
  }
}

function checkValue(field: FieldDef, value: Json, path: string, out: ValueProblem[]): void {
  const types = typesOf(field);
  if (!types.some((type) => matches(type, value))) {
    out.push({ path, code: 'wrong-type', what: `${quoted(value)} is not ${types.map((type) => TYPE_WORDS[type]).join(' or ')}` });
    return;
  }
  if (typeof value === 'string') checkText(field, value, path, out);
  if (isJsonObject(value) && field.properties) checkObject(field.properties, value, `${path}.`, out);
  if (Array.isArray(value)) {
    if (field.minItems !== undefined && value.length < field.minItems)
      out.push({ path, code: 'too-few-items', what: `needs at least ${field.minItems} items, not ${value.length}` });
    if (field.maxItems !== undefined && value.length > field.maxItems)
      out.push({ path, code: 'too-many-items', what: `takes at most ${field.maxItems} items, not ${value.length}` });
    const items = field.items;
    if (items) value.forEach((item, index) => checkValue(items, item, `${path}.${index}`, out));
  }
}

function checkObject(fields: Record<string, FieldDef>, data: JsonObject, prefix: string, out: ValueProblem[]): void {
  // A for-in, not Object.entries: no pair array per field of every row.
  for (const name in data) {
    if (!Object.hasOwn(data, name)) continue;
    const value = data[name];
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) out.push({ path: `${prefix}${name}`, code: 'unknown-field', what: `'${prefix}${name}' is not a field of this model` });
    else if (!field.readonly) checkValue(field, value, `${prefix}${name}`, out);
  }
}

const missing = (value: Json | undefined): boolean => value === undefined || value === null || value === '';

/** Required fields at the top, and inside every object or list item that is given. */
const fieldLists = new WeakMap<Record<string, FieldDef>, [string, FieldDef][]>();

/** A model's fields as a list, made once: this runs for every field of every row. */
function fieldList(fields: Record<string, FieldDef>): [string, FieldDef][] {
  let list = fieldLists.get(fields);
  if (!list) fieldLists.set(fields, (list = Object.entries(fields)));
  return list;
}

function checkRequiredIn(fields: Record<string, FieldDef>, data: JsonObject, prefix: string, out: ValueProblem[]): void {
  for (const [name, field] of fieldList(fields)) {
    const value = data[name];
    if (value === undefined && !field.required) continue;
    const path = `${prefix}${name}`;
    if (field.required && missing(value)) out.push({ path, code: 'required', what: `${field.title} (${path}) is required` });
    if (isJsonObject(value) && field.properties) checkRequiredIn(field.properties, value, `${path}.`, out);
    const items = field.items;
    if (Array.isArray(value) && items?.properties) {
      value.forEach(
        (item, index) => isJsonObject(item) && items.properties && checkRequiredIn(items.properties, item, `${path}.${index}.`, out),
      );
    }
  }
}

export function valueProblems(model: ModelDef, data: JsonObject): ValueProblem[] {
  const out: ValueProblem[] = [];
  checkObject(model.fields, data, '', out);
  return out;
}

export function requiredProblems(model: ModelDef, data: JsonObject): ValueProblem[] {
  const out: ValueProblem[] = [];
  checkRequiredIn(model.fields, data, '', out);
  return out;
}

/**
 * What the API's own field checks refuse that `found` does not already cover. Its required
 * check (schema/validate.ts checkRequired) is not run again: requiredProblems() reports every
 * top-level field it would, and more, on the same complete data.
 */
export function apiProblems(model: ModelDef, payload: JsonObject, found: ValueProblem[]): ValueProblem[] {
  const faults = dataFaults(model, payload);
  if (faults.length === 0) return [];
  const covered = new Set(found.map((problem) => problem.path));
  const out: ValueProblem[] = [];
  for (const detail of faults) {
    if (!covered.has(detail.field)) out.push({ path: detail.field, code: 'invalid', what: `${detail.field} ${detail.message}`.trim() });
  }
  return out;
}
