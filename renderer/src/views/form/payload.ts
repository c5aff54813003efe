import type { SchemaProperty } from '../../api/types';
import { clearedValue, coerce } from './coerce';
import { getAt, joinPath, kindOf, sameJson, type JsonRecord } from './schema-paths';
import type { FilledBy } from './validate';

/**
 * The `data` a form sends.
 * - Add: every field that has a value (the form's starting values included, so a policy's
 *   defaults and hidden defaults reach the service), except fields a picked template fills that
 *   the user left as they started: the template's value must not lose to an untouched default.
 * - Edit: the service merges a PUT over the stored instance (objects name by name, lists whole),
 *   so only what changed is sent; an emptied field is sent as null (or "" where null is not allowed).
 * Read-only fields cannot change, so they are only sent on add when they start with a value
 * (a policy's default).
 */
export function addPayload(schema: SchemaProperty, values: JsonRecord, initial: JsonRecord, filledBy: FilledBy = () => false): JsonRecord {
  return addObject(schema, values, initial, '', filledBy);
}

export function editPayload(schema: SchemaProperty, values: JsonRecord, initial: JsonRecord): JsonRecord {
  return editObject(schema, values, initial, '');
}

function addObject(schema: SchemaProperty, values: unknown, initial: unknown, path: string, filledBy: FilledBy): JsonRecord {
  const data: JsonRecord = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const fieldPath = joinPath(path, name);
    const value = addValue(property, getAt(values, name), getAt(initial, name), fieldPath, filledBy);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function addValue(property: SchemaProperty, value: unknown, initial: unknown, path: string, filledBy: FilledBy): unknown {
  const kind = kindOf(property);
  if (kind === 'object') {
    const nested = addObject(property, value, initial, path, filledBy);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  const built = kind === 'array' ? listValue(property, value) : scalarValue(property, value);
  if (built === undefined) return undefined;
  if (filledBy(path) && sameJson(built, kind === 'array' ? listValue(property, initial) : scalarValue(property, initial))) return undefined;
  return built;
}

/** A list's rows with their empty fields and empty scalar rows left out. */
function listValue(property: SchemaProperty, value: unknown): unknown[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = property.items ?? {};
  const rows = value
    .map((row, index) => (kindOf(items) === 'object' ? addObject(items, row, undefined, String(index), () => false) : scalarValue(items, row)))
    .filter((row) => row !== undefined);
  return rows;
}

function scalarValue(property: SchemaProperty, value: unknown): unknown {
  const coerced = coerce(property, value);
  return coerced.state === 'value' ? coerced.value : undefined;
}

function editObject(schema: SchemaProperty, values: unknown, initial: unknown, path: string): JsonRecord {
  const data: JsonRecord = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = editValue(property, getAt(values, name), getAt(initial, name), joinPath(path, name));
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function editValue(property: SchemaProperty, value: unknown, initial: unknown, path: string): unknown {
  const kind = kindOf(property);
  if (kind === 'object') {
    const nested = editObject(property, value, initial, path);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  if (kind === 'array') {
    const rows = listValue(property, value) ?? [];
    const before = Array.isArray(initial) ? initial : [];
    return sameJson(rows, before) ? undefined : rows;
  }
  const now = scalarValue(property, value);
  const before = scalarValue(property, initial);
  if (now === undefined) return before === undefined ? undefined : clearedValue(property);
  return sameJson(now, before) ? undefined : now;
}
