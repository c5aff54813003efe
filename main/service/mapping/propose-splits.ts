import type { SourceColumn } from './propose-columns';
import { compact } from './similarity';
import { CONCEPTS } from './synonyms';

/**
 * A column of full names cut into the first and last names a model asks for, when no column of
 * the sheet gives them: an HR export with only "Name" (`Jean Dupont`) or "Nom complet", or a
 * directory's "Last, First" (`Dupont, Jean`). Proposed only when the values agree: at least 8 in
 * 10 of the sampled names are two words or more (or all carry the comma), so a column of single
 * names or of numbers is never cut.
 */
export interface SplitProposal {
  header: string;
  separator: string;
  targets: (string | null)[];
  reason: string;
}

const AGREE = 0.8;
const NAME_WORDS = new Set(
  CONCEPTS.filter((concept) => concept.name === 'display name').flatMap((concept) => Object.values(concept.words).flat().map(compact)),
);
const WORDS = /^\p{L}[\p{L}'’.-]*(\s+\p{L}[\p{L}'’.-]*)+$/u;
const LAST_COMMA_FIRST = /^\p{L}[\p{L}'’. -]*,\s*\p{L}[\p{L}'’. -]*$/u;

function share(values: string[], test: RegExp): number {
  const present = values.map((value) => value.trim()).filter((value) => value !== '');
  return present.length === 0 ? 0 : present.filter((value) => test.test(value)).length / present.length;
}

export function proposeSplits(sources: SourceColumn[], fillable: ReadonlySet<string>, filled: ReadonlySet<string>): SplitProposal[] {
  if (!fillable.has('firstname') || !fillable.has('lastname') || filled.has('firstname') || filled.has('lastname')) return [];
  const named = sources.find((source) => NAME_WORDS.has(compact(source.header)));
  if (!named) return [];
  if (share(named.values, LAST_COMMA_FIRST) >= AGREE)
    return [
      {
        header: named.header,
        separator: ',',
        targets: ['lastname', 'firstname'],
        reason: `its values are "last, first" names and no column gives the first and last names`,
      },
    ];
  if (share(named.values, WORDS) >= AGREE)
    return [
      {
        header: named.header,
        separator: ' ',
        targets: ['firstname', 'lastname'],
        reason: `its values are full names and no column gives the first and last names: the first word is the first name, the rest the last name`,
      },
    ];
  return [];
}
