import type { Json } from '../api-types';
import type { FieldDef, FieldType } from '../models/types';
import { isoDateText, type RawCell } from './cell-value';
import { quoted } from './issue-text';
import { numberText } from './number-text';

/**
 * A cell read for one field: text stays exactly as typed in text fields, yes/no words and 1/0
 * become booleans, digits become whole numbers. What cannot be read is a problem with a code
 * and a sentence saying what to do; what was read with a guess is a warning.
 */
export interface CellProblem {
  severity: 'error' | 'warning';
  code: string;
  what: string;
}

export interface FieldCell {
  /** Absent when the cell could not be read: the field is then "not given". */
  value?: Json;
  problem?: CellProblem;
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

const typesOf = (field: FieldDef): FieldType[] => (Array.isArray(field.type) ? field.type : [field.type]);
const error = (code: string, what: string): FieldCell => ({ problem: { severity: 'error', code, what } });
const warned = (value: Json, code: string, what: string): FieldCell => ({ value, problem: { severity: 'warning', code, what } });

function expected(types: FieldType[]): string {
  if (types.includes('boolean')) return 'TRUE or FALSE';
  if (types.includes('integer')) return 'a whole number';
  if (types.includes('number')) return 'a number';
  if (types.includes('object')) return 'a JSON object such as {"destination": "+33140001000"}';
  if (types.includes('array')) return 'a JSON list such as ["a", "b"]';
  return 'text';
}

function fromText(text: string, types: FieldType[]): FieldCell {
  const has = (type: FieldType): boolean => types.includes(type);
  if (text.trim() === '') {
    // A cell holding only spaces sends an empty string (decisions.md); where text is not allowed, null.
    if (has('string')) return { value: '' };
    return has('null')
      ? { value: null }
      : error('wrong-type', `an empty value is not allowed here: write ${expected(types)} or leave the cell empty`);
  }
  if (has('string')) return { value: text };
  const word = text.trim().toLowerCase();
  if (has('boolean') && (TRUE_WORDS.has(word) || FALSE_WORDS.has(word))) return { value: TRUE_WORDS.has(word) };
  if (has('integer') && /^[+-]?\d{1,15}$/.test(word)) return { value: Number(word) };
  if (has('number') && word !== '' && Number.isFinite(Number(word))) return { value: Number(word) };
  if (has('object') || has('array')) return fromJsonText(text, types);
  return error('wrong-type', `${quoted(text)} is not ${expected(types)}`);
}

function fromJsonText(text: string, types: FieldType[]): FieldCell {
  try {
    const value = JSON.parse(text) as Json;
    const fits =
      (types.includes('object') && typeof value === 'object' && value !== null && !Array.isArray(value)) ||
      (types.includes('array') && Array.isArray(value));
    if (fits) return { value };
  } catch {
    // Reported below, like any other text that is not what the field takes.
  }
  return error('wrong-type', `${quoted(text)} is not ${expected(types)}`);
}

function fromNumber(value: number, numFmt: string | undefined, types: FieldType[]): FieldCell {
  if ((types.includes('integer') && Number.isInteger(value)) || types.includes('number')) return { value };
  if (types.includes('string')) {
    const { text, lostDigits } = numberText(value, numFmt);
    if (lostDigits) {
      return error(
        'number-lost-digits',
        `the number ${text} has more than the 15 digits Excel keeps, so its last digits were lost: format the column as Text and type the number again (store directory numbers as text)`,
      );
    }
    return warned(
      text,
      'numeric-in-text-column',
      `numeric cell read as the text '${text}': format the column as Text so numbers keep a leading + or 0 (store directory numbers as text)`,
    );
  }
  if (types.includes('boolean') && (value === 0 || value === 1)) return { value: value === 1 };
  return error('wrong-type', `${value} is not ${expected(types)}`);
}

/** Converts a non-empty cell for a field. */
export function fieldCell(raw: RawCell, field: FieldDef): FieldCell {
  const types = typesOf(field);
  switch (raw.kind) {
    case 'text':
      return fromText(raw.text, types);
    case 'number':
      return fromNumber(raw.value, raw.numFmt, types);
    case 'boolean':
      if (types.includes('boolean')) return { value: raw.value };
      if (types.includes('string'))
        return warned(
          raw.value ? 'TRUE' : 'FALSE',
          'boolean-in-text-column',
          `a TRUE/FALSE cell in a text column is read as the text '${raw.value ? 'TRUE' : 'FALSE'}'`,
        );
      return error('wrong-type', `${raw.value ? 'TRUE' : 'FALSE'} is not ${expected(types)}`);
    case 'date':
      if (types.includes('string'))
        return warned(
          isoDateText(raw.value),
          'date-in-text-column',
          `date cell read as the text '${isoDateText(raw.value)}': format the column as Text if another form is meant`,
        );
      return error('wrong-type', `a date is not ${expected(types)}`);
    case 'error':
      return error('cell-error', `the cell holds the error ${raw.text}: correct the formula or type the value`);
    case 'no-value':
      return error(
        'formula-without-value',
        'the formula has no saved result (or its result is an error): open the workbook in Excel or LibreOffice, let it calculate, save it and upload it again',
      );
  }
}

/** A meta column's text (hierarchy, template, pkid...): numbers as typed, nothing else guessed. */
export function metaText(raw: RawCell): { text?: string; problem?: CellProblem } {
  if (raw.kind === 'text') return { text: raw.text.trim() };
  if (raw.kind === 'number') return { text: numberText(raw.value, raw.numFmt).text };
  if (raw.kind === 'boolean') return { text: raw.value ? 'TRUE' : 'FALSE' };
  if (raw.kind === 'date') return { text: isoDateText(raw.value) };
  return { problem: fieldCell(raw, { type: 'string', title: '' }).problem };
}
