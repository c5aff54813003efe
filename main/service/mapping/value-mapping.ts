import type { FieldDef } from '../models/types';
import { compact, normalized, similarity } from './similarity';

/**
 * A column's own words for a field's choices, mapped onto the values the field takes: the
 * distinct values of the column's sample, each with its count and the valid value proposed for
 * it, by exact match, by abbreviation (`Exec` is `Executive Override`, `Speaker` is `Auto
 * Answer with Speakerphone`), by likeness, and for yes/no fields by the words for yes and no in
 * four languages (`Oui`, `Ja`, `x`, `1` are true). A value nothing is like is proposed as null:
 * the user chooses.
 */
export interface ValueProposal {
  value: string;
  count: number;
  to: string | boolean | null;
  reason: string;
}

/** Distinct values listed for a column; more are counted in the last entry's place. */
export const MAX_DISTINCT = 200;
/** The longest value listed for mapping onto a choice. */
const MAX_VALUE_CHARS = 255;

const YES = new Set([
  'yes',
  'y',
  'oui',
  'o',
  'ja',
  'j',
  'si',
  'true',
  'vrai',
  'wahr',
  'verdadero',
  'x',
  '1',
  'on',
  'an',
  'active',
  'actif',
  'aktiv',
  'activo',
  'enabled',
]);
const NO = new Set([
  'no',
  'n',
  'non',
  'nein',
  'false',
  'faux',
  'falsch',
  'falso',
  '0',
  'off',
  'aus',
  'inactive',
  'inactif',
  'inaktiv',
  'inactivo',
  'disabled',
  '-',
]);

const isBoolean = (field: FieldDef): boolean => (Array.isArray(field.type) ? field.type : [field.type]).includes('boolean');

function booleanOf(value: string): ValueProposal['to'] {
  const key = normalized(value);
  if (YES.has(key)) return true;
  if (NO.has(key)) return false;
  return null;
}

/**
 * Customers' words, in French, German and Spanish, for the English words of the call manager's
 * choices (`Casque` is a headset: `Auto Answer with Headset`), by their compact form.
 */
const CHOICE_WORDS: Record<string, string> = {
  casque: 'headset',
  microcasque: 'headset',
  kopfhoerer: 'headset',
  auriculares: 'headset',
  cascos: 'headset',
  hautparleur: 'speaker',
  lautsprecher: 'speaker',
  freisprechen: 'speaker',
  altavoz: 'speaker',
  mainslibres: 'speaker',
  desactive: 'off',
  inactif: 'off',
  ausgeschaltet: 'off',
  desactivado: 'off',
  apagado: 'off',
  prioritaire: 'priority',
  vorrang: 'priority',
  prioridad: 'priority',
  normale: 'routine',
  normal: 'routine',
  dringend: 'immediate',
  urgente: 'immediate',
};

/** The choice this value stands for, with why; null when none is like it. */
function choiceOf(value: string, choices: string[]): { to: string | null; reason: string } {
  const word = CHOICE_WORDS[compact(value)];
  if (word !== undefined) {
    const found = choiceByWords(word, choices);
    if (found.to !== null) return { to: found.to, reason: `"${value}" is ${word}: ${found.to}` };
  }
  return choiceByWords(value, choices);
}

function choiceByWords(value: string, choices: string[]): { to: string | null; reason: string } {
  const key = compact(value);
  const exact = choices.find((choice) => compact(choice) === key);
  if (exact) return { to: exact, reason: exact === value ? 'a valid value' : 'the valid value, written otherwise' };
  if (key.length >= 2) {
    // An abbreviation: the start of one choice, or of one of its words (`Speaker`), and of no other.
    const starts = choices.filter(
      (choice) =>
        compact(choice).startsWith(key) ||
        normalized(choice)
          .split(' ')
          .some((word) => word.length > 2 && word.startsWith(key)),
    );
    if (starts.length === 1) return { to: starts[0], reason: `short for ${starts[0]}` };
  }
  const ranked = choices.map((choice) => ({ choice, alike: similarity(value, choice) })).sort((a, b) => b.alike - a.alike);
  if (ranked[0] && ranked[0].alike >= 0.6) return { to: ranked[0].choice, reason: `like ${ranked[0].choice}` };
  return { to: null, reason: 'no valid value is like it: choose one' };
}

/** Value proposals for a column mapped to `field`, or undefined when the field takes any text. */
export function proposeValues(values: string[], field: FieldDef): ValueProposal[] | undefined {
  const choices = field.choices?.map((choice) => choice.value);
  if (!isBoolean(field) && (!choices || choices.length === 0)) return undefined;
  const counts = new Map<string, number>();
  for (const value of values) {
    const text = value.trim();
    // No choice is that long: such a value is left to the field's check, not listed to map.
    if (text !== '' && text.length <= MAX_VALUE_CHARS) counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  const distinct = [...counts].sort((a, b) => b[1] - a[1]).slice(0, MAX_DISTINCT);
  return distinct.map(([value, count]) => {
    if (isBoolean(field)) {
      const to = booleanOf(value);
      return { value, count, to, reason: to === null ? 'neither a yes nor a no: choose one' : `means ${to ? 'yes' : 'no'}` };
    }
    return { value, count, ...choiceOf(value, choices ?? []) };
  });
}
