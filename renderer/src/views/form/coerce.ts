import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { isRecord, kindOf, typesOf } from './schema-paths';

/**
 * What a form input holds, turned into the JSON value the service expects. Inputs hold text, so
 * numbers and free-form objects are parsed here, once, for both the checks and the payload.
 */
export type Coerced = { state: 'empty' } | { state: 'value'; value: unknown } | { state: 'invalid'; message: string };

const EMPTY: Coerced = { state: 'empty' };

export function coerce(property: SchemaProperty, raw: unknown): Coerced {
  if (raw === undefined || raw === null) return EMPTY;
  switch (kindOf(property)) {
    case 'boolean':
      return { state: 'value', value: raw === true || raw === 'true' };
    case 'number':
      return typeof raw === 'string' ? parseNumber(property, raw) : { state: 'value', value: raw };
    case 'json':
      return typeof raw === 'string' ? parseObject(raw) : { state: 'value', value: raw };
    default:
      return raw === '' ? EMPTY : { state: 'value', value: raw };
  }
}

function parseNumber(property: SchemaProperty, text: string): Coerced {
  const trimmed = text.trim();
  if (trimmed === '') return EMPTY;
  const wholeOnly = !typesOf(property).includes('number');
  if (wholeOnly && !/^-?\d+$/.test(trimmed)) return { state: 'invalid', message: 'must be a whole number' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { state: 'invalid', message: 'must be a number' };
  return { state: 'value', value };
}

function parseObject(text: string): Coerced {
  if (text.trim() === '') return EMPTY;
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return { state: 'value', value };
  } catch {
    // Reported below: the same message for bad JSON and for JSON that is not an object.
  }
  return { state: 'invalid', message: 'must be a JSON object, e.g. {"name": "value"}' };
}

/** The value that clears a stored field on modify: null where the schema allows it. */
export function clearedValue(property: SchemaProperty): unknown {
  const types = typesOf(property);
  if (types.includes('null')) return null;
  if (types.includes('string')) return '';
  return null;
}

/** The text an input shows for a stored value. */
export function inputText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value, null, 2);
  return String(value);
}
