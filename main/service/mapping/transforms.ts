import type { MappingTransform } from '../contract/mapping-api';

/**
 * The changes a customer's values need before they are a model's (issue "Customer sheets in any
 * shape", point 3), each a pure function of the value, so a preview is the same call on sample
 * rows. A transform that cannot make sense of a value answers it unchanged: the check of the
 * field then reports it, quoted, rather than the transform guessing.
 */
/** Trim, case, E.164 from a local number, a site's name made its node, a MAC made the phone's name (mapping-api.ts says each). */
export type Transform = MappingTransform;

const MAC = /^([0-9a-f]{2})[:.-]?([0-9a-f]{2})[:.-]?([0-9a-f]{2})[:.-]?([0-9a-f]{2})[:.-]?([0-9a-f]{2})[:.-]?([0-9a-f]{2})$/i;
const CISCO_MAC = /^([0-9a-f]{4})\.([0-9a-f]{4})\.([0-9a-f]{4})$/i;

export function e164(value: string, countryCode: string): string {
  const digits = value.replace(/[\s().-]/g, '');
  if (/^\+\d{7,15}$/.test(digits)) return digits;
  // 00 is the international prefix in most of the world: 0033... is +33...
  if (/^00[1-9]\d{6,14}$/.test(digits)) return `+${digits.slice(2)}`;
  const code = countryCode.replace(/^\+/, '');
  // A national number: its trunk prefix 0 dropped behind the country code.
  if (/^0\d{6,13}$/.test(digits) && /^\d{1,3}$/.test(code)) return `+${code}${digits.slice(1)}`;
  return value;
}

export function deviceFromMac(value: string, prefix = 'SEP'): string {
  const text = value.trim();
  const match = MAC.exec(text) ?? CISCO_MAC.exec(text);
  return match ? `${prefix}${match.slice(1).join('').toUpperCase()}` : value;
}

/** Each word's first letter upper case, the rest lower: after a space, a hyphen or an apostrophe (`O'NEILL` -> `O'Neill`). */
export function titleCase(value: string): string {
  return value.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/**
 * A value cut at a separator into `parts` pieces, the last taking the rest (`Jean Pierre Dupont`
 * cut in two at a space: `Jean`, `Pierre Dupont`); spaces around the pieces trimmed, missing
 * pieces empty. A space separator cuts at any run of white space.
 */
export function splitValue(value: string, separator: string, parts: number): string[] {
  const text = value.trim();
  const pieces: string[] = [];
  let rest = text;
  const cut = separator.trim() === '' ? /\s+/ : undefined;
  while (pieces.length < parts - 1 && rest !== '') {
    const match = cut ? cut.exec(rest) : undefined;
    const at = match ? match.index : rest.indexOf(separator);
    if (at < 0) break;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at + (match ? match[0].length : separator.length)).trim();
  }
  pieces.push(rest);
  while (pieces.length < parts) pieces.push('');
  return pieces;
}

/** What a transform may need beyond the value: the places of mapping-places.ts, and the row's node. */
export interface TransformContext {
  nodePath?: (name: string) => string | undefined;
  countryCode?: () => string | undefined;
}

export function applyTransform(value: string, transform: Transform, context: TransformContext = {}): string {
  switch (transform.kind) {
    case 'node':
      return context.nodePath?.(value) ?? value;
    case 'trim':
      return value.trim();
    case 'case':
      if (transform.to === 'upper') return value.toUpperCase();
      return transform.to === 'title' ? titleCase(value) : value.toLowerCase();
    case 'e164': {
      const code = transform.country_code ?? context.countryCode?.();
      return code === undefined ? value : e164(value, code);
    }
    case 'device-from-mac':
      return deviceFromMac(value, transform.prefix);
  }
}
