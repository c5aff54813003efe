/** Control characters (C0, DEL and C1): invisible in a cell, so a message writes them out. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const visible = (text: string): string =>
  text.replace(CONTROL, (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Quotes a value in a message, shortened so a message stays one readable line. Spaces show
 * between the quotes; a tab, a line break or another control character is written out (\t, \n,
 * \u0001), so the value a message judged can always be seen.
 */
export function quoted(value: unknown): string {
  const text = visible(typeof value === 'string' ? value : JSON.stringify(value));
  return `'${text.length > 60 ? `${text.slice(0, 57)}...` : text}'`;
}
