import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError, type FaultDetail } from '../errors';
import type { FieldDef, FieldType, ModelDef } from '../models/types';

/**
 * Validates a `{data: {...}}` payload against a model's fields: unknown fields, types,
 * patterns, lengths and choices, recursively through nested objects and arrays. Read-only
 * (computed) fields are dropped, so an exported instance can be sent back as it is.
 */
export function validateData(model: ModelDef, data: unknown): JsonObject {
  if (!isJsonObject(data)) {
    throw new ApiError(400, 'validation-failed', 'The body must be a JSON object of the form {"data": {...}}.', [
      { field: 'data', message: 'must be an object' },
    ]);
  }
  const unknown: FaultDetail[] = [];
  const invalid: FaultDetail[] = [];
  const cleaned = checkObject(model.fields, data, '', unknown, invalid, true);
  if (unknown.length > 0) {
    const names = unknown.map((detail) => detail.field).join(', ');
    throw new ApiError(400, 'unknown-field', `Unknown field ${names} for ${model.modelType}.`, unknown);
  }
  if (invalid.length > 0) throw invalidFields(invalid);
  return cleaned;
}

/**
 * What validateData would refuse in `data`, as details (unknown fields first), without throwing
 * and without making the cleaned copy: a workbook's validation asks this of every row.
 */
export function dataFaults(model: ModelDef, data: JsonObject): FaultDetail[] {
  const unknown: FaultDetail[] = [];
  const invalid: FaultDetail[] = [];
  checkObject(model.fields, data, '', unknown, invalid, false);
  return unknown.length > 0 ? unknown : invalid;
}

/** Required fields must hold a value once defaults and the existing instance are merged in. */
export function checkRequired(model: ModelDef, data: JsonObject): void {
  const missing: FaultDetail[] = [];
  for (const [name, field] of requiredOf(model)) {
    const value = data[name];
    if (value === undefined || value === null || value === '')
      missing.push({ field: name, message: `${field.title} (${name}) is required` });
  }
  if (missing.length > 0) throw invalidFields(missing);
}

const requiredByModel = new WeakMap<ModelDef, [string, FieldDef][]>();

/** The model's required fields, listed once per model: every row of a load asks (Object.entries made 40 pairs each time). */
function requiredOf(model: ModelDef): [string, FieldDef][] {
  let list = requiredByModel.get(model);
  if (!list) {
    list = Object.entries(model.fields).filter(([, field]) => field.required);
    requiredByModel.set(model, list);
  }
  return list;
}

/** Fills in schema defaults for top-level fields that were not given. */
export function withDefaults(model: ModelDef, data: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [name, value] of defaultsOf(model)) {
    // Keys keep the schema's order whoever gives the value. Only object and array defaults need
    // a copy of their own; most are strings and numbers, and a given value is not copied at all.
    if (Object.hasOwn(data, name)) result[name] = data[name];
    else result[name] = value !== null && typeof value === 'object' ? structuredClone(value) : value;
  }
  return Object.assign(result, data);
}

const defaultsByModel = new WeakMap<ModelDef, [string, Json][]>();

/** The model's writable fields that have a default, listed once per model: validation asks per row. */
function defaultsOf(model: ModelDef): [string, Json][] {
  let list = defaultsByModel.get(model);
  if (!list) {
    list = Object.entries(model.fields).flatMap(([name, field]) =>
      field.default !== undefined && !field.readonly ? [[name, field.default] as [string, Json]] : [],
    );
    defaultsByModel.set(model, list);
  }
  return list;
}

function invalidFields(details: FaultDetail[]): ApiError {
  const summary = details.map((detail) => `${detail.field}: ${detail.message}`).join('; ');
  return new ApiError(400, 'validation-failed', `Invalid data: ${summary}.`, details);
}

function checkObject(
  fields: Record<string, FieldDef>,
  value: JsonObject,
  prefix: string,
  unknown: FaultDetail[],
  invalid: FaultDetail[],
  /** Whether to make the cleaned copy (validateData) or only to find faults (dataFaults). */
  keep: boolean,
): JsonObject {
  const cleaned: JsonObject = {};
  // A for-in, not Object.entries: no pair array per field (a bulk load checks every row).
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const fieldValue = value[name];
    const path = `${prefix}${name}`;
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) {
      unknown.push({ field: path, message: 'is not a field of this model' });
      continue;
    }
    if (field.readonly) continue;
    const checked = checkValue(field, fieldValue, path, unknown, invalid, keep);
    if (keep) cleaned[name] = checked;
  }
  return cleaned;
}

function typesOf(field: FieldDef): FieldType[] {
  return Array.isArray(field.type) ? field.type : [field.type];
}

function matchesType(type: FieldType, value: Json): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
  }
}

function checkValue(field: FieldDef, value: Json, path: string, unknown: FaultDetail[], invalid: FaultDetail[], keep: boolean): Json {
  const types = typesOf(field);
  if (!types.some((type) => matchesType(type, value))) {
    invalid.push({ field: path, message: `must be ${types.map(describeType).join(' or ')}, not ${describeValue(value)}` });
    return value;
  }
  if (typeof value === 'string') checkString(field, value, path, invalid);
  if (isJsonObject(value) && field.properties) return checkObject(field.properties, value, `${path}.`, unknown, invalid, keep);
  if (Array.isArray(value)) {
    if (field.minItems !== undefined && value.length < field.minItems) {
      invalid.push({ field: path, message: `needs at least ${field.minItems} entries` });
    }
    if (field.maxItems !== undefined && value.length > field.maxItems) {
      invalid.push({ field: path, message: `takes at most ${field.maxItems} entries` });
    }
    const items = field.items;
    if (items) return value.map((item, index) => checkValue(items, item, `${path}.${index}`, unknown, invalid, keep));
  }
  return value;
}

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

function checkString(field: FieldDef, value: string, path: string, invalid: FaultDetail[]): void {
  if (field.choices && value !== '' && !field.choices.some((choice) => choice.value === value)) {
    const allowed = field.choices.map((choice) => choice.value).join(', ');
    invalid.push({ field: path, message: `must be one of ${allowed}, not '${value}'` });
    return;
  }
  if (field.minLength !== undefined && value.length < field.minLength && value !== '') {
    invalid.push({ field: path, message: `must be at least ${field.minLength} characters long` });
  }
  if (field.maxLength !== undefined && value.length > field.maxLength) {
    invalid.push({ field: path, message: `must be at most ${field.maxLength} characters long` });
  }
  if (field.pattern && value !== '' && patternOf(field)?.test(value) === false) {
    invalid.push({ field: path, message: `'${value}' does not have the expected form (${field.pattern})` });
  }
}

function describeType(type: FieldType): string {
  return type === 'integer' ? 'a whole number' : type === 'object' ? 'an object' : type === 'array' ? 'a list' : `a ${type}`;
}

function describeValue(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
