/**
 * The valid choice nearest to what was typed: what an unknown value's message and its suggested
 * fix offer. Shared by the field checks (the message) and the staged workbooks (the fix), so
 * both name the same choice.
 */
function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** The choice closest to the text: the same ignoring case and spaces, else the fewest edits (ties: the first listed). */
export function nearestChoice(text: string, choices: string[]): string | undefined {
  const plain = text.trim().replace(/\s+/g, ' ').toLowerCase();
  const same = choices.find((choice) => choice.toLowerCase() === plain);
  if (same !== undefined) return same;
  let best: { choice: string; cost: number } | undefined;
  for (const choice of choices) {
    const cost = distance(plain, choice.toLowerCase());
    if (!best || cost < best.cost) best = { choice, cost };
  }
  // Past half the word, a "nearest" choice is a guess, not an obvious fix.
  return best && best.cost <= Math.max(2, Math.ceil(plain.length / 2)) ? best.choice : undefined;
}
