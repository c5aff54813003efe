import { getAt, isRecord, sameJson, setAt, type JsonRecord } from './schema-paths';
import type { TemplateFill } from './template-fills';

/**
 * How a picked Configuration Template changes what the form holds, so that what a field shows is
 * what is saved: a field the template fills and the user has not changed is emptied (the input
 * then shows the template's value as its placeholder, and an empty field is not sent, so the
 * template gives it); a value the user typed stays and wins over the template.
 */
export interface TemplateValues {
  values: JsonRecord;
  /** Paths emptied for the template: given back their starting value when the template goes. */
  cleared: string[];
}

/** Whether a field holds nothing the payload would send (then a template's value applies). */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Empties every filled path still at its starting value; the others are the user's and stay. */
export function clearForTemplate(values: JsonRecord, initial: JsonRecord, fills: TemplateFill[]): TemplateValues {
  let next = values;
  const cleared: string[] = [];
  for (const { path } of fills) {
    const value = getAt(next, path);
    if (!sameJson(value, getAt(initial, path))) continue;
    cleared.push(path);
    if (value !== undefined) next = setAt(next, path, undefined);
  }
  return { values: next, cleared };
}

/** Gives the paths a template emptied their starting value back, unless the user filled them since. */
export function restoreCleared(values: JsonRecord, initial: JsonRecord, cleared: string[]): JsonRecord {
  let next = values;
  for (const path of cleared) {
    const start = getAt(initial, path);
    if (isEmptyValue(getAt(next, path)) && start !== undefined) next = setAt(next, path, start);
  }
  return next;
}

/**
 * The values of a re-read form: its new starting values, with what the user changed from the old
 * ones on top (objects compared name by name, anything else as a whole).
 */
export function carryOver(values: unknown, oldInitial: unknown, newInitial: unknown): unknown {
  if (!isRecord(values) || !isRecord(oldInitial)) return sameJson(values, oldInitial) ? newInitial : values;
  const base = isRecord(newInitial) ? newInitial : {};
  const result: JsonRecord = { ...base };
  for (const key of new Set([...Object.keys(values), ...Object.keys(oldInitial)])) {
    const value = values[key];
    const before = oldInitial[key];
    const next = isRecord(value)
      ? carryOver(value, isRecord(before) ? before : {}, base[key])
      : sameJson(value, before)
        ? base[key]
        : value;
    if (next === undefined) delete result[key];
    else result[key] = next;
  }
  return result;
}
