import { isJsonObject, type Json } from '../api-types';
import type { SheetDirective } from './sheet-types';

/**
 * How one JSON value becomes one spreadsheet cell, so that reading the cell back (decisions.md,
 * "Bulk load sheets") gives the same value: strings stay strings, never numbers or formulas.
 */
/**
 * `Date`, `{error}`, a number with its format and `{noValue}` (a formula the file saved no result
 * for) only where a staged workbook saves back what a file held.
 */
export type CellValue =
  string | number | boolean | null | Date | { error: string } | { number: number; numFmt: string } | { noValue: true };

/** The reader takes a cell holding only a space as an empty string (an empty cell is "not given"). */
export const EMPTY_STRING_CELL = ' ';

/** A cell that Excel would take for a formula if it were typed (formula injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * True for a text that starts like a formula and is not a plain number. Such a text is always
 * written as a string cell with the text format, so Excel shows it and never evaluates it,
 * not even after someone edits the cell.
 */
export function looksLikeFormula(text: string): boolean {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);
}

/**
 * The cell of a value. `null` and absent values leave the cell empty; objects and arrays in a
 * column that holds a whole free-form value are written as JSON text.
 */
export function cellValueOf(value: Json | undefined): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value === '' ? EMPTY_STRING_CELL : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** The value at a column path: names through objects, 0-based indexes through arrays. */
export function valueAt(data: Json | undefined, path: string): Json | undefined {
  let current: Json | undefined = data;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isJsonObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** Cell A1 of the directive layout: `entity: ...; hierarchy: ...; parallel: ...; evaluate_macros: ...`. */
export function directiveText(directive: SheetDirective): string {
  const parts = [
    `entity: ${directive.entity}`,
    ...(directive.hierarchy ? [`hierarchy: ${directive.hierarchy}`] : []),
    `parallel: ${String(directive.parallel)}`,
    `evaluate_macros: ${String(directive.evaluateMacros)}`,
    ...(directive.template ? [`template: ${directive.template}`] : []),
  ];
  return parts.join('; ');
}

/** A sheet name from a model type (`relation/LineRelation` -> `relation_LineRelation`), as the reader maps it back. */
export function sheetNameOf(modelType: string): string {
  return modelType.replace(/\//g, '_').slice(0, 31);
}
