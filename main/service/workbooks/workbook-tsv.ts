import type { TimeSlice } from '../turns';

/**
 * A block copied from Excel or LibreOffice: cells separated by tabs, rows by line ends (CRLF
 * from Excel on Windows, LF elsewhere), and the last line end left out or not. A cell holding a
 * tab, a line end or a leading quote is quoted the CSV way (`"a""b"`).
 */
export function parseTsv(text: string): string[][] {
  const steps = tsvRows(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The same, a turn of the event loop given when `slice` is spent: a 6 MB block is 100-300 ms of parsing. */
export async function parseTsvInTurns(text: string, slice: TimeSlice): Promise<string[][]> {
  const steps = tsvRows(text);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slice.due()) await slice.turn();
  }
}

/** The parser, pausing (a bare `yield`) every 4,096 characters. */
function* tsvRows(text: string): Generator<undefined, string[][]> {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let at = 0;
  const endCell = (): void => {
    row.push(cell);
    cell = '';
  };
  while (at < text.length) {
    if ((at & 0xfff) === 0) yield;
    const char = text[at];
    if (cell === '' && char === '"' && (at === 0 || text[at - 1] === '\t' || text[at - 1] === '\n' || text[at - 1] === '\r')) {
      const close = quotedEnd(text, at);
      if (close > 0) {
        cell = text.slice(at + 1, close).replace(/""/g, '"');
        at = close + 1;
        continue;
      }
    }
    if (char === '\t') endCell();
    else if (char === '\n' || char === '\r') {
      endCell();
      rows.push(row);
      row = [];
      if (char === '\r' && text[at + 1] === '\n') at += 1;
    } else cell += char;
    at += 1;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/** Where a quoted cell starting at `start` ends (its closing quote, followed by a tab, a line end or the end), or -1. */
function quotedEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at += 1) {
    if (text[at] !== '"') continue;
    if (text[at + 1] === '"') {
      at += 1;
      continue;
    }
    const next = text[at + 1];
    return next === undefined || next === '\t' || next === '\n' || next === '\r' ? at : -1;
  }
  return -1;
}
