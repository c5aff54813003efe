/**
 * One cell as the workbook holds it, before any field gives it a meaning. exceljs hands cell
 * values over as plain values or as objects (formula, rich text, error, hyperlink); this takes
 * them apart structurally, because a shared formula whose text is empty reaches us as a bare
 * `{formula: '', result}` object that exceljs does not even type as a formula.
 */
export type RawCell =
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number; numFmt?: string }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'date'; value: Date }
  | { kind: 'error'; text: string }
  /** A formula the file saved no result for (or whose result was an error exceljs dropped). */
  | { kind: 'no-value' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function richText(value: Record<string, unknown>): string | undefined {
  if (!Array.isArray(value.richText)) return undefined;
  return value.richText.map((run) => (isObject(run) && typeof run.text === 'string' ? run.text : '')).join('');
}

function formulaResult(value: Record<string, unknown>, numFmt?: string): RawCell | undefined {
  const result = value.result;
  if (result === undefined || result === null || (typeof result === 'number' && Number.isNaN(result))) return { kind: 'no-value' };
  return rawCellOf(result, numFmt) ?? { kind: 'no-value' };
}

function objectCell(value: Record<string, unknown>, numFmt?: string): RawCell | undefined {
  if ('formula' in value || 'sharedFormula' in value) return formulaResult(value, numFmt);
  const rich = richText(value);
  if (rich !== undefined) return rich === '' ? undefined : { kind: 'text', text: rich };
  if (typeof value.error === 'string') return { kind: 'error', text: value.error };
  if (typeof value.text === 'string') return value.text === '' ? undefined : { kind: 'text', text: value.text };
  return { kind: 'error', text: 'an unreadable value' };
}

/** Undefined for an empty cell: an empty cell means "not given". */
export function rawCellOf(value: unknown, numFmt?: string): RawCell | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : { kind: 'text', text: value };
  if (typeof value === 'number') return Number.isFinite(value) ? { kind: 'number', value, numFmt } : { kind: 'error', text: '#NUM!' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? { kind: 'error', text: 'an impossible date' } : { kind: 'date', value };
  if (isObject(value)) return objectCell(value, numFmt);
  return { kind: 'error', text: 'an unreadable value' };
}

/** A date as ISO text: the day alone when it has no time of day. */
export function isoDateText(date: Date): string {
  // Excel stores times as fractions of a day: round to the second it displays.
  const rounded = new Date(Math.round(date.getTime() / 1000) * 1000);
  const iso = rounded.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19);
}
