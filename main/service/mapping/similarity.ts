/**
 * How alike two header texts are, as a person reading a customer's sheet would judge: case,
 * accents, punctuation and spacing do not count (`Prénom`, `PRENOM`, `pre-nom` are one word), and
 * what is left is compared by edit distance, so `Extention` is still `Extension`.
 */
export function normalized(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The normalized text without spaces: `first name` and `firstname` are one key. */
export const compact = (text: string): string => normalized(text).replace(/ /g, '');

/** Levenshtein distance, bounded: texts longer than 64 characters are compared on their first 64. */
function distance(a: string, b: string): number {
  const left = a.slice(0, 64);
  const right = b.slice(0, 64);
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost));
    }
    previous = current;
  }
  return previous[right.length];
}

/** 1 for the same key, falling towards 0 as more letters differ. */
export function similarity(a: string, b: string): number {
  const left = compact(a);
  const right = compact(b);
  if (left === '' || right === '') return 0;
  if (left === right) return 1;
  return 1 - distance(left, right) / Math.max(left.length, right.length);
}
