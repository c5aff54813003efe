import type { DataObject } from '../../../../main/service/contract/resource-api';

/** The value at a dot path of an instance's data (`callForwardAll.destination`). */
export function valueAt(data: DataObject, path: string): unknown {
  let current: unknown = data;
  for (const part of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** One table cell's text: booleans in words, nothing as an empty cell, objects in short JSON. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
