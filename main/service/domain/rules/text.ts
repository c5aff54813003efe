/** Quotes a value in a message, shortened so a message stays one readable line. */
export function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `'${text.length > 60 ? `${text.slice(0, 57)}...` : text}'`;
}
