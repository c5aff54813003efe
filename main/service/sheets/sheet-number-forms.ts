import { isJsonObject, type JsonObject } from '../api-types';
import type { FieldDef, ModelDef } from '../models/types';
import type { ParsedRow, SheetIssue } from './sheet-types';

/**
 * The form a sheet writes its directory numbers in, for a number Excel stored as a number: when
 * the sheet's other numbers in that column all carry a + (or a leading 0, or 00) and the digits
 * fit among them (same length range, same first digits after the prefix), the number lost that
 * prefix. Anything less than that agreement is not certain, and no form is given.
 */

/** How many of a column's values a validation looks at for its form. */
export const COLUMN_SAMPLE = 2_000;

/** A number as written: its prefix (`+`, `\+`, `00`, `0` or none); undefined for a pattern with wildcards or other text. */
function prefixOf(text: string): string | undefined {
  const match = /^(\\?\+|00|0)?\d+$/.exec(text);
  return match ? (match[1] ?? '') : undefined;
}

export interface WrittenForm {
  /** The digits as the sheet would write them. */
  form: string;
  /** One of the sheet's numbers written so, to show. */
  example: string;
}

/** The form the sheet's other numbers give `digits`, when they all agree on one (at least two of them). */
export function sheetForm(digits: string, others: readonly string[]): WrittenForm | undefined {
  let prefix: string | undefined;
  let count = 0;
  let shortest = Infinity;
  let longest = 0;
  let example = '';
  const heads = new Set<string>();
  for (const text of others) {
    const own = prefixOf(text);
    if (own === undefined) continue;
    if (prefix === undefined) prefix = own;
    else if (own !== prefix) return undefined;
    count += 1;
    shortest = Math.min(shortest, text.length);
    longest = Math.max(longest, text.length);
    // The country code (or trunk digits) the prefix is followed by.
    heads.add(text.slice(0, own.length + 2));
    example ||= text;
  }
  if (prefix === undefined || count < 2) return undefined;
  const form = prefix + digits;
  if (form.length < shortest || form.length > longest || !heads.has(form.slice(0, prefix.length + 2))) return undefined;
  return { form, example };
}

/** Calls `found` with each directory number the data holds as text, by its field path. */
function eachNumber(fields: Record<string, FieldDef>, data: JsonObject, prefix: string, found: (path: string, text: string) => void): void {
  for (const key in data) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const value = data[key];
    if (!field) continue;
    if (field.format === 'directory-number') {
      if (typeof value === 'string') found(prefix + key, value);
    } else if (field.properties && isJsonObject(value)) {
      eachNumber(field.properties, value, `${prefix}${key}.`, found);
    } else if (field.items?.properties && Array.isArray(value)) {
      const item = field.items.properties;
      value.forEach((entry, index) => {
        if (isJsonObject(entry)) eachNumber(item, entry, `${prefix}${key}.${index}.`, found);
      });
    }
  }
}

/**
 * The directory numbers a file's rows hold as text, kept as the rows pass (a file is validated as
 * it streams, so a row sees the rows before it), up to COLUMN_SAMPLE per sheet. A number read
 * from a numeric cell is not kept: it is the form in question, not the sheet's.
 */
export class NumberSample {
  private readonly texts = new Map<string, string[]>();
  private readonly kept = new Map<string, number>();

  note(sheet: string, model: ModelDef, row: ParsedRow, issues: readonly SheetIssue[]): void {
    const kept = this.kept.get(sheet) ?? 0;
    if (kept >= COLUMN_SAMPLE) return;
    let added = 0;
    eachNumber(model.fields, row.data, '', (path, text) => {
      if (issues.some((issue) => issue.field === path && issue.code === 'numeric-in-text-column')) return;
      const key = `${sheet}\u0000${path}`;
      const list = this.texts.get(key);
      if (list) list.push(text);
      else this.texts.set(key, [text]);
      added += 1;
    });
    this.kept.set(sheet, kept + added);
  }

  of(sheet: string, path: string): readonly string[] {
    return this.texts.get(`${sheet}\u0000${path}`) ?? [];
  }
}
