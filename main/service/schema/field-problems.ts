import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { quoted } from '../domain/rules/text';
import type { Choice, FieldDef, FieldType, ModelDef } from '../models/types';
import { nearestChoice } from './nearest-choice';
import { controlCharactersMessage, hasControlCharacters, hasSpacesAround, namedThing, spacesAroundMessage } from './text-hygiene';

/**
 * A model's field checks, written once: every problem of a payload's values with its field path
 * and a code (unknown-field, wrong-type, not-a-choice, too-long, too-short, bad-pattern,
 * too-few-items, too-many-items, required). The API maps them to its fault (validate.ts:
 * 400 `unknown-field` or `validation-failed`, with `details: [{field, message}]`), workbook
 * validation to an issue at each field (sheets/validate-row.ts). Text is first checked for what it
 * hides (text-hygiene.ts: control characters, spaces around a name). A message is the rest of a
 * sentence that starts with the field, with no full stop.
 *
 * These run for every row of a validation or a load: no allocation unless there is a problem
 * (for-in rather than Object.entries, field lists made once per model, patterns compiled once).
 */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
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
  boolean: 'true or false',
  integer: 'a whole number',
  number: 'a number',
  object: 'an object',
  array: 'a list',
  null: 'empty',
};

const compiled = new WeakMap<FieldDef, RegExp>();

/**
 * A field's pattern, compiled once: every row of a load or a validation tests it, and a new
 * RegExp per value was a measurable part of a 100,000-row validation.
 */
export function patternOf(field: FieldDef): RegExp | undefined {
  if (field.pattern === undefined) return undefined;
  let pattern = compiled.get(field);
  if (!pattern) compiled.set(field, (pattern = new RegExp(field.pattern)));
  return pattern;
}

/** Past this many choices a message names the nearest one only: the form and the sheet list them all. */
const LISTED_CHOICES = 12;

/**
 * An unknown value of an enumerated field, with the nearest valid choice: the call manager
 * compares these exactly (case and spaces too), so 'Auto Answer Offf' or 'device' is refused
 * here rather than there.
 */
function notAChoice(choices: Choice[], value: string): string {
  const values = choices.map((choice) => choice.value);
  const allowed =
    values.length <= LISTED_CHOICES
      ? `one of the allowed values: ${values.join(', ')}`
      : `one of the ${values.length} allowed values (the form's drop-down and the sheet's list show them)`;
  const nearest = nearestChoice(value, values);
  return `${quoted(value)} is not ${allowed}${nearest === undefined ? '' : `; the nearest is ${quoted(nearest)}`}`;
}

/** An empty text is "not given": no choice, length or pattern applies to it. */
function checkText(field: FieldDef, value: string, path: string, out: FieldProblem[]): void {
  if (value === '') return;
  // What the value hides comes first: every other check would judge a value the user cannot see.
  if (!field.multiline && hasControlCharacters(value)) {
    out.push({ field: path, code: 'control-characters', message: controlCharactersMessage(value) });
    return;
  }
  if (field.names && hasSpacesAround(value)) {
    out.push({ field: path, code: 'spaces-around', message: spacesAroundMessage(namedThing(field), value) });
    return;
  }
  if (field.choices && !field.choices.some((choice) => choice.value === value)) {
    out.push({ field: path, code: 'not-a-choice', message: notAChoice(field.choices, value) });
    return;
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    const message = `${quoted(value)} is ${value.length} characters long; at most ${field.maxLength} are allowed`;
    out.push({ field: path, code: 'too-long', message });
  }
  if (field.minLength !== undefined && value.length < field.minLength) {
    const message = `${quoted(value)} is ${value.length} characters long; at least ${field.minLength} are needed`;
    out.push({ field: path, code: 'too-short', message });
  }
  if (field.pattern && patternOf(field)?.test(value) === false) {
    const message =
      field.format === 'directory-number'
        ? `${quoted(value)} is not a directory number: use digits, *, # or X, with an optional leading + and no spaces`
        : `${quoted(value)} does not have the expected form (${field.pattern})`;
    out.push({ field: path, code: 'bad-pattern', message });
  }
}

function checkValue(field: FieldDef, value: Json, path: string, out: FieldProblem[]): void {
  const types = typesOf(field);
  if (!types.some((type) => matches(type, value))) {
    out.push({ field: path, code: 'wrong-type', message: `${quoted(value)} is not ${types.map((type) => TYPE_WORDS[type]).join(' or ')}` });
    return;
  }
  if (typeof value === 'string') checkText(field, value, path, out);
  if (isJsonObject(value) && field.properties) checkObject(field.properties, value, `${path}.`, out);
  if (Array.isArray(value)) {
    if (field.minItems !== undefined && value.length < field.minItems)
      out.push({ field: path, code: 'too-few-items', message: `needs at least ${field.minItems} items, not ${value.length}` });
    if (field.maxItems !== undefined && value.length > field.maxItems)
      out.push({ field: path, code: 'too-many-items', message: `takes at most ${field.maxItems} items, not ${value.length}` });
    const items = field.items;
    if (items) value.forEach((item, index) => checkValue(items, item, `${path}.${index}`, out));
  }
}

function checkObject(fields: Record<string, FieldDef>, data: JsonObject, prefix: string, out: FieldProblem[]): void {
  // A for-in, not Object.entries: no pair array per field of every row.
  for (const name in data) {
    if (!Object.hasOwn(data, name)) continue;
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) out.push({ field: `${prefix}${name}`, code: 'unknown-field', message: `'${prefix}${name}' is not a field of this model` });
    // Read-only (computed) fields are not checked: an exported instance can be sent back as it is.
    else if (!field.readonly) checkValue(field, data[name], `${prefix}${name}`, out);
  }
}

/** Every problem of the values given in `data` (not of what is missing: see requiredProblems). */
export function fieldProblems(model: ModelDef, data: JsonObject): FieldProblem[] {
  const out: FieldProblem[] = [];
  checkObject(model.fields, data, '', out);
  return out;
}

const missing = (value: Json | undefined): boolean => value === undefined || value === null || value === '';

const fieldLists = new WeakMap<Record<string, FieldDef>, [string, FieldDef][]>();
const requiredLists = new WeakMap<Record<string, FieldDef>, [string, FieldDef][]>();

/** A model's fields as a list, made once: this runs for every field of every row. */
function fieldList(fields: Record<string, FieldDef>): [string, FieldDef][] {
  let list = fieldLists.get(fields);
  if (!list) fieldLists.set(fields, (list = Object.entries(fields)));
  return list;
}

/** The required fields alone, listed once (Object.entries made 40 pairs a row). */
function requiredList(fields: Record<string, FieldDef>): [string, FieldDef][] {
  let list = requiredLists.get(fields);
  if (!list) requiredLists.set(fields, (list = fieldList(fields).filter(([, field]) => field.required)));
  return list;
}

function checkRequiredIn(fields: Record<string, FieldDef>, data: JsonObject, prefix: string, nested: boolean, out: FieldProblem[]): void {
  for (const [name, field] of nested ? fieldList(fields) : requiredList(fields)) {
    const value = data[name];
    if (value === undefined && !field.required) continue;
    const path = `${prefix}${name}`;
    if (field.required && missing(value)) out.push({ field: path, code: 'required', message: `${field.title} (${path}) is required` });
    if (!nested) continue;
    if (isJsonObject(value) && field.properties) checkRequiredIn(field.properties, value, `${path}.`, true, out);
    const items = field.items;
    if (Array.isArray(value) && items?.properties) {
      value.forEach(
        (item, index) => isJsonObject(item) && items.properties && checkRequiredIn(items.properties, item, `${path}.${index}.`, true, out),
      );
    }
  }
}

/**
 * Required fields without a value, in the whole data an instance will hold (defaults or the
 * stored instance merged in): at the top, and with `nested`, inside every object or list item
 * given too. The API checks the top level (validate.ts checkRequired); workbook validation
 * checks nested fields as well.
 */
export function requiredProblems(model: ModelDef, data: JsonObject, nested = true): FieldProblem[] {
  const out: FieldProblem[] = [];
  checkRequiredIn(model.fields, data, '', nested, out);
  return out;
}
