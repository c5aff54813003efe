/**
 * ST_Xstring's escapes (ECMA-376 part 1, 22.9.2.19): a character XML cannot carry, or an
 * underscore that would read as an escape, is written `_xHHHH_` (`_x000D_` a carriage return,
 * `_x005F_` an underscore). Decoded in one pass, so `_x005F_x000D_` reads `_x000D_`.
 */
const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

export function decodeEscapes(text: string): string {
  if (!text.includes('_x')) return text;
  return text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
