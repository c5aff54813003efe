/**
 * What a column's values look like, from a sample of its rows: the kinds of value a provisioning
 * sheet holds. A kind is the column's when most of its non-empty sample has it, so a header the
 * proposal cannot read can still be placed by its content (a column of `+33...` is a number).
 */
export type ValueKind = 'e164' | 'local-number' | 'extension' | 'mac' | 'device-name' | 'email' | 'hierarchy' | 'yes-no';

const KINDS: [ValueKind, RegExp][] = [
  ['e164', /^\+[1-9]\d{6,14}$/],
  // National numbers as people write them: 01 40 00 10 50, 030 1234567, (020) 7946 0000.
  ['local-number', /^\(?0\d{1,4}\)?([ .-]?\d{2,4}){2,5}$/],
  ['extension', /^\d{3,6}$/],
  ['mac', /^([0-9a-f]{2}[:.-]?){5}[0-9a-f]{2}$/i],
  ['device-name', /^(SEP|ATA|CSF|BOT|TCT|TAB)[0-9A-Z]{3,}$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i],
  ['hierarchy', /^sys(\.[^.\s][^.]*)+$/],
  ['yes-no', /^(yes|no|y|n|oui|non|ja|nein|si|sí|true|false|x|1|0|vrai|faux|wahr|falsch)$/i],
];

/** Share of the non-empty sample a kind must have to be the column's. */
const MOST = 0.8;

export function kindOfValues(values: string[]): ValueKind | undefined {
  const present = values.map((value) => value.trim()).filter((value) => value !== '');
  if (present.length === 0) return undefined;
  for (const [kind, pattern] of KINDS) {
    const matching = present.filter((value) => pattern.test(value.replace(/\s+/g, kind === 'local-number' ? ' ' : ''))).length;
    if (matching / present.length >= MOST) return kind;
  }
  return undefined;
}
