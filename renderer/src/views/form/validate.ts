import type { SchemaProperty } from '../../../../main/service/contract/resource-api';
import { coerce } from './coerce';
import { getAt, joinPath, kindOf, visibleFields } from './schema-paths';

/** Field path -> what is wrong with it, in words the user can act on. */
export type FieldErrors = Record<string, string>;

/** Whether a Configuration Template will give this path a value, so "required" is met. */
export type FilledBy = (path: string) => boolean;

/**
 * The schema's own checks before anything is sent: required, pattern, length, number types and
 * list sizes. Read-only fields are skipped (the user cannot fix them); hidden ones are checked,
 * because the service still requires them, and end up in the summary at the top.
 */
export function validateForm(schema: SchemaProperty, values: unknown, filledBy: FilledBy = () => false): FieldErrors {
  const errors: FieldErrors = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    checkProperty(property, getAt(values, name), name, errors, filledBy);
  }
  return errors;
}

function checkProperty(property: SchemaProperty, value: unknown, path: string, errors: FieldErrors, filledBy: FilledBy): void {
  if (property.readonly) return;
  const kind = kindOf(property);
  if (kind === 'object') {
    for (const [name, child] of Object.entries(property.properties ?? {})) {
      checkProperty(child, getAt(value, name), joinPath(path, name), errors, filledBy);
    }
    return;
  }
  if (kind === 'array') {
    checkList(property, value, path, errors, filledBy);
    return;
  }
  const message = scalarProblem(property, value, path, filledBy);
  if (message) errors[path] = `${titleOf(property, path)} ${message}.`;
}

function checkList(property: SchemaProperty, value: unknown, path: string, errors: FieldErrors, filledBy: FilledBy): void {
  const rows = Array.isArray(value) ? value : [];
  const title = titleOf(property, path);
  if (property.required && rows.length === 0 && !filledBy(path)) errors[path] = `${title} needs at least one row.`;
  else if (property.minItems !== undefined && rows.length < property.minItems && !filledBy(path))
    errors[path] = `${title} needs at least ${plural(property.minItems, 'row')}.`;
  else if (property.maxItems !== undefined && rows.length > property.maxItems)
    errors[path] = `${title} takes at most ${plural(property.maxItems, 'row')}.`;
  if (!property.items) return;
  const items = property.items;
  rows.forEach((row, index) => checkProperty(items, row, joinPath(path, index), errors, filledBy));
}

function scalarProblem(property: SchemaProperty, raw: unknown, path: string, filledBy: FilledBy): string | undefined {
  const coerced = coerce(property, raw);
  if (coerced.state === 'invalid') return coerced.message;
  if (coerced.state === 'empty') return property.required && !filledBy(path) ? 'is required' : undefined;
  const value = coerced.value;
  if (typeof value !== 'string') return undefined;
  if (property.minLength !== undefined && value.length < property.minLength)
    return `needs at least ${plural(property.minLength, 'character')}`;
  if (property.maxLength !== undefined && value.length > property.maxLength)
    return `is too long: at most ${plural(property.maxLength, 'character')} (now ${value.length})`;
  if (property.pattern && !matches(property.pattern, value)) return 'is not in the expected form';
  return undefined;
}

/** A pattern the browser cannot compile is left to the service rather than blocking the form. */
function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
}

function titleOf(property: SchemaProperty, path: string): string {
  if (property.title) return property.title;
  const last = path.split('.').pop() ?? path;
  return /^\d+$/.test(last) ? `Row ${Number(last) + 1}` : last;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Paths in the order the form shows them, so the summary reads top to bottom. */
export function orderedErrors(errors: FieldErrors, schema: SchemaProperty): [string, string][] {
  const order = new Map<string, number>();
  visibleFields(schema).forEach(([name], index) => order.set(name, index));
  const rank = (path: string): number => order.get(path.split('.')[0]) ?? Number.MAX_SAFE_INTEGER;
  return Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b, undefined, { numeric: true }));
}
