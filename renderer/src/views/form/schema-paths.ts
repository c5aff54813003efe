import type { SchemaProperty } from '../../../../main/service/contract/resource-api';

/**
 * Dot paths into form data and its schema, the way the service names fields in faults and sheets:
 * names step into objects, 0-based indexes into lists (`callForwardAll.destination`,
 * `lines.0.pattern`).
 */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function joinPath(parent: string, name: string | number): string {
  return parent === '' ? String(name) : `${parent}.${name}`;
}

export function getAt(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** A copy of `data` with the value at `path` replaced; missing containers are created. */
export function setAt(data: JsonRecord, path: string, value: unknown): JsonRecord {
  return setIn(data, path.split('.'), value) as JsonRecord;
}

function setIn(container: unknown, segments: string[], value: unknown): unknown {
  const [head, ...rest] = segments;
  const isIndex = /^\d+$/.test(head);
  const copy: Record<string, unknown> | unknown[] = Array.isArray(container)
    ? [...container]
    : isRecord(container)
      ? { ...container }
      : isIndex
        ? []
        : {};
  const current = Array.isArray(copy) ? copy[Number(head)] : copy[head];
  const next = rest.length === 0 ? value : setIn(current, rest, value);
  if (Array.isArray(copy)) copy[Number(head)] = next;
  else copy[head] = next;
  return copy;
}

/** The schema property at a dot path (indexes step into `items`). */
export function propertyAt(schema: SchemaProperty, path: string): SchemaProperty | undefined {
  let current: SchemaProperty | undefined = schema;
  for (const segment of path.split('.')) {
    if (!current) return undefined;
    current = /^\d+$/.test(segment) && current.items ? current.items : current.properties?.[segment];
  }
  return current;
}

export function typesOf(property: SchemaProperty): string[] {
  if (Array.isArray(property.type)) return property.type;
  return property.type ? [property.type] : ['string'];
}

export type FieldKind = 'object' | 'json' | 'array' | 'boolean' | 'choice' | 'number' | 'text';

/** How a property is edited: the widget family, from its type, choices and nesting. */
export function kindOf(property: SchemaProperty): FieldKind {
  const types = typesOf(property);
  if (types.includes('object')) return property.properties ? 'object' : 'json';
  if (types.includes('array')) return 'array';
  if (property.choices && property.choices.length > 0) return 'choice';
  if (types.length === 1 && types[0] === 'boolean') return 'boolean';
  if (types.includes('string')) return 'text';
  if (types.includes('integer') || types.includes('number')) return 'number';
  return 'text';
}

/** Fields the form lays out (not hidden), in schema order. */
export function visibleFields(property: SchemaProperty): [string, SchemaProperty][] {
  return Object.entries(property.properties ?? {}).filter(([, child]) => !child.hidden);
}

/** A new list row: the item's defaults, or an empty value. */
export function newRow(items: SchemaProperty | undefined): unknown {
  if (!items) return '';
  const kind = kindOf(items);
  if (kind !== 'object') return items.default ?? (kind === 'boolean' ? false : '');
  const row: JsonRecord = {};
  for (const [name, child] of Object.entries(items.properties ?? {})) if (child.default !== undefined) row[name] = child.default;
  return row;
}

/** Deep equality of JSON values, for "did the user change this". */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameJson(a[key], b[key]));
  }
  return false;
}
