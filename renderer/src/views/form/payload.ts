import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { clearedValue, coerce } from './coerce';
import { getAt, joinPath, kindOf, sameJson, type JsonRecord } from './schema-paths';
import type { FilledBy } from './validate';

/**
 * The `data` a form sends: exactly what the form shows, so the user is never surprised.
 * - Add: every field that has a value (the form's starting values included, so a policy's
 *   defaults and hidden defaults reach the service). A field a picked template fills holds no
 *   value until the user types one (form-values.ts empties it), so it is left to the template.
 * - Edit: the service merges a PUT over the stored instance (objects name by name, lists whole),
 *   so only what changed is sent; an emptied field is sent as null (or "" where null is not
 *   allowed), unless a picked template fills it: then it is left out and the template gives it.
 * Read-only fields cannot change, so they are only sent on add when they start with a value
 * (a policy's default).
 */
export function addPayload(schema: SchemaProperty, values: JsonRecord): JsonRecord {
  return addObject(schema, values);
}

export function editPayload(schema: SchemaProperty, values: JsonRecord, initial: JsonRecord, filledBy: FilledBy = () => false): JsonRecord {
  return editObject(schema, values, initial, '', filledBy);
}

function addObject(schema: SchemaProperty, values: unknown): JsonRecord {
  const data: JsonRecord = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = addValue(property, getAt(values, name));
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function addValue(property: SchemaProperty, value: unknown): unknown {
  const kind = kindOf(property);
  if (kind === 'object') {
    const nested = addObject(property, value);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  return kind === 'array' ? listValue(property, value) : scalarValue(property, value);
}

/** A list's rows with their empty fields and empty scalar rows left out. */
function listValue(property: SchemaProperty, value: unknown): unknown[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const items = property.items ?? {};
  return value
    .map((row) => (kindOf(items) === 'object' ? addObject(items, row) : scalarValue(items, row)))
    .filter((row) => row !== undefined);
}

function scalarValue(property: SchemaProperty, value: unknown): unknown {
  const coerced = coerce(property, value);
  return coerced.state === 'value' ? coerced.value : undefined;
}

function editObject(schema: SchemaProperty, values: unknown, initial: unknown, path: string, filledBy: FilledBy): JsonRecord {
  const data: JsonRecord = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = editValue(property, getAt(values, name), getAt(initial, name), joinPath(path, name), filledBy);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

function editValue(property: SchemaProperty, value: unknown, initial: unknown, path: string, filledBy: FilledBy): unknown {
  const kind = kindOf(property);
  if (kind === 'object') {
    const nested = editObject(property, value, initial, path, filledBy);
    return Object.keys(nested).length > 0 ? nested : undefined;
  }
  if (kind === 'array') {
    const rows = listValue(property, value) ?? [];
    const before = Array.isArray(initial) ? initial : [];
    // An emptied list the template fills is the template's to build.
    if (rows.length === 0 && filledBy(path)) return undefined;
    return sameJson(rows, before) ? undefined : rows;
  }
  const now = scalarValue(property, value);
  const before = scalarValue(property, initial);
  if (now === undefined) return before === undefined || filledBy(path) ? undefined : clearedValue(property);
  return sameJson(now, before) ? undefined : now;
}
