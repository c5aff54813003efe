/**
 * A staged sheet stores only rows that hold a value: the empty rows of the file between them
 * are not rows (a 6 KB file with one cell at A999990 is one row, not 999,989). What keeps each
 * stored row's Excel number is the sheet's gaps: `[idx, skip]` pairs, sorted by idx, saying that
 * `skip` empty rows of the file stood just before the row at `idx`. A row's number is the first
 * data row's number, plus its idx, plus every skip at or before it; messages, issue lists, plans,
 * outcomes and saved files all use it.
 *
 * Inserting rows in the grid puts them before any gap at their place (right after the row
 * above); deleting rows takes the gaps before them along with them, except the one before the
 * first, which stays with the row that takes its place.
 */
export type RowGaps = [idx: number, skip: number][];

interface Numbering {
  text: string;
  gaps: RowGaps;
  /** cumulative[i]: the skips of gaps[0..i]. */
  cumulative: number[];
}

/** The last sheets' gaps, parsed: a page of rows asks for a number per row. */
const recent: Numbering[] = [];

function numbering(text: string): Numbering {
  const known = recent.find((entry) => entry.text === text);
  if (known) return known;
  const gaps = parseGaps(text);
  let sum = 0;
  const entry = { text, gaps, cumulative: gaps.map(([, skip]) => (sum += skip)) };
  recent.unshift(entry);
  if (recent.length > 8) recent.pop();
  return entry;
}

export function parseGaps(text: string | null | undefined): RowGaps {
  if (!text || text === '[]') return [];
  return JSON.parse(text) as RowGaps;
}

/** Empty file rows before the row at `idx`, counted from the first data row. */
export function skippedBefore(text: string | null | undefined, idx: number): number {
  if (!text || text === '[]') return 0;
  const { gaps, cumulative } = numbering(text);
  // The last gap at or before idx.
  let low = 0;
  let high = gaps.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (gaps[middle][0] <= idx) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? 0 : cumulative[low - 1];
}

/** Gaps after `count` rows are inserted at `at`: gaps at or after it move down with the rows. */
export function gapsAfterInsert(gaps: RowGaps, at: number, count: number): RowGaps {
  return gaps.map(([idx, skip]) => [idx >= at ? idx + count : idx, skip]);
}

/** Gaps after the rows at these places are deleted (see above); trailing gaps go. */
export function gapsAfterDelete(gaps: RowGaps, deleted: number[], rowsLeft: number): RowGaps {
  const sorted = [...deleted].sort((a, b) => a - b);
  const gone = new Set(sorted);
  const kept: RowGaps = [];
  let removedBefore = 0;
  let pointer = 0;
  for (const [idx, skip] of gaps) {
    while (pointer < sorted.length && sorted[pointer] < idx) {
      pointer += 1;
      removedBefore += 1;
    }
    // A gap before a deleted row stays only if the row before it was kept (it is then the first of a run).
    if (gone.has(idx) && gone.has(idx - 1)) continue;
    const place = idx - removedBefore;
    if (place >= rowsLeft) continue;
    const last = kept[kept.length - 1];
    if (last && last[0] === place) last[1] += skip;
    else kept.push([place, skip]);
  }
  return kept;
}
