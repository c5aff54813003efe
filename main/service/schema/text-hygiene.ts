import { quoted } from '../domain/rules/text';
import type { FieldDef } from '../models/types';

/**
 * What a cell's text carries without showing it: control characters (a tab or line break from a
 * block pasted into one cell, or a C0/C1 character from an export) in a single-line field, and
 * spaces around a value that names something (a device, a partition, a template...), which the
 * call manager then looks up, and fails to find, with those spaces. Both are errors whose
 * message quotes the value with what it hides written out; the fix is the value without them.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_RUNS = /[\u0000-\u001f\u007f-\u009f]+/g;

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

/**
 * The text without its control characters: a run of them between two words becomes one space
 * ('Line\tOne' reads 'Line One'), elsewhere it goes; the text's own spaces stay as they are.
 */
export function withoutControlCharacters(value: string): string {
  return value.replace(CONTROL_RUNS, (run: string, at: number) => {
    const before = value[at - 1];
    const after = value[at + run.length];
    return before === undefined || after === undefined || before === ' ' || after === ' ' ? '' : ' ';
  });
}

export const hasSpacesAround = (value: string): boolean => value !== value.trim() && value.trim() !== '';

function controlWords(value: string): string {
  const words = new Set<string>();
  for (const char of value) {
    if (!CONTROL.test(char)) continue;
    words.add(char === '\t' ? 'a tab' : char === '\n' || char === '\r' ? 'a line break' : 'a control character');
  }
  return [...words].join(' and ');
}

export function controlCharactersMessage(value: string): string {
  return `${quoted(value)} holds ${controlWords(value)}, which a single-line field cannot hold (often a block pasted into one cell): remove them`;
}

/** `what` names the kind of thing, as a message reads it: 'device', 'route partition', 'CFT template'. */
export function spacesAroundMessage(what: string, value: string): string {
  return `${quoted(value)} has spaces around it, and a ${what} is looked up by its exact name: write ${quoted(value.trim())}`;
}

/** How a field's message names what its value names: its title, in lower case unless an acronym. */
export const namedThing = (field: Pick<FieldDef, 'title'>): string =>
  field.title
    .split(' ')
    .map((word) => (/^[A-Z0-9.]+$/.test(word) && word.length > 1 ? word : word.toLowerCase()))
    .join(' ');
