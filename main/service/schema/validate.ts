import { isJsonObject, type Json, type JsonObject } from '../api-types';
import { ApiError, type FaultDetail } from '../errors';
import type { FieldDef, ModelDef } from '../models/types';
import { fieldProblems, requiredProblems, type FieldProblem } from './field-problems';

export { patternOf } from './field-problems';

/**
 * Validates a `{data: {...}}` payload against a model's fields (field-problems.ts: unknown
 * fields, types, patterns, lengths and choices, recursively through nested objects and arrays)
 * and answers the API's fault for what it finds: 400 `unknown-field` when a field is unknown,
 * else 400 `validation-failed`, each problem a detail at its field. Read-only (computed) fields
 * are dropped, so an exported instance can be sent back as it is.
 */
export function validateData(model: ModelDef, data: unknown): JsonObject {
  if (!isJsonObject(data)) {
    throw new ApiError(400, 'validation-failed', 'The body must be a JSON object of the form {"data": {...}}.', [
      { field: 'data', message: 'must be an object' },
    ]);
  }
  const problems = fieldProblems(model, data);
  if (problems.length > 0) {
    const unknown = problems.filter((problem) => problem.code === 'unknown-field');
    if (unknown.length > 0) {
      const names = unknown.map((problem) => problem.field).join(', ');
      throw new ApiError(400, 'unknown-field', `Unknown field ${names} for ${model.modelType}.`, detailsOf(unknown));
    }
    throw invalidFields(detailsOf(problems));
  }
  return withoutReadonly(model.fields, data);
}

/** Required fields must hold a value once defaults and the existing instance are merged in. */
export function checkRequired(model: ModelDef, data: JsonObject): void {
  const missing = requiredProblems(model, data, false);
  if (missing.length > 0) throw invalidFields(detailsOf(missing));
}

const detailsOf = (problems: FieldProblem[]): FaultDetail[] => problems.map(({ field, message }) => ({ field, message }));

/** A copy of checked data without its read-only fields, at every depth. */
function withoutReadonly(fields: Record<string, FieldDef>, value: JsonObject): JsonObject {
  const cleaned: JsonObject = {};
  // A for-in, not Object.entries: no pair array per field (a bulk load checks every row).
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (field && !field.readonly) cleaned[name] = cleanValue(field, value[name]);
  }
  return cleaned;
}

function cleanValue(field: FieldDef, value: Json): Json {
  if (isJsonObject(value) && field.properties) return withoutReadonly(field.properties, value);
  const items = field.items;
  if (Array.isArray(value) && items) return value.map((item) => cleanValue(items, item));
  return value;
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
