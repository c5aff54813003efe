import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS, corpusFiles } from '../fixtures/real-world/corpus-files';
import { CORPUS_DIFFERENCES, type CorpusDifference } from '../fixtures/real-world/differences';
import { compareBooks, ownBook, type CellDifference } from './sheets-differential';
import { sheetjsBook } from './sheets-reference-sheetjs';

/**
 * The real-world corpus (test/fixtures/real-world/, its README says where each file comes from
 * and which program wrote it): every workbook is read by our reader and by SheetJS, and both
 * must give the same worksheets, in tab order, with the same non-empty cells and values
 * (normalized as sheets-reference-sheetjs.ts explains). A file where a difference is right on
 * purpose is listed, with the reason, in differences.ts.
 */

const FILES = corpusFiles();

/** A difference only in line ends: SheetJS keeps the CR of a literal CR LF that XML makes LF. */
function crlfOnly(difference: CellDifference): boolean {
  if (!difference.ours.startsWith('text ') || !difference.sheetjs.startsWith('text ')) return false;
  const ours = JSON.parse(difference.ours.slice(5)) as string;
  const theirs = JSON.parse(difference.sheetjs.slice(5)) as string;
  return theirs.includes('\r\n') && theirs.replace(/\r\n/g, '\n') === ours;
}

const applied: string[] = [];

/**
 * CORPUS_REPORT=<file> appends every file's outcome there as JSON lines (its refusals and all its
 * differing cells): the raw material of a report on where our reader and SheetJS part.
 */
function report(entry: object): void {
  if (process.env.CORPUS_REPORT) appendFileSync(process.env.CORPUS_REPORT, `${JSON.stringify(entry)}\n`);
}

afterAll(() => {
  if (applied.length > 0) console.log(`Listed differences applied (test/fixtures/real-world/differences.ts):\n${applied.join('\n')}`);
});

describe('the real-world corpus reads as SheetJS reads it', () => {
  it('has the files its README promises, and lists differences only for files it holds', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(120);
    expect(Object.keys(CORPUS_DIFFERENCES).filter((file) => !FILES.includes(file))).toEqual([]);
  });

  it.each(FILES)('%s', async (file) => {
    const path = join(CORPUS, file);
    const listed: CorpusDifference | undefined = CORPUS_DIFFERENCES[file];
    const reference = sheetjsBook(path);
    const date1904 = 'sheets' in reference && reference.date1904;
    const ours = await ownBook(path, file.split('/').pop() ?? file, date1904);
    const ourFault = 'fault' in ours ? ours.fault : undefined;
    const theirRefusal = 'refused' in reference ? reference.refused : undefined;
    report({ file, fault: ourFault, refused: theirRefusal });

    if (listed?.refused || listed?.refusedByUs) {
      if (listed.refused) expect(theirRefusal, `${file}: SheetJS must refuse it too (${listed.reason})`).toBeDefined();
      else expect(theirRefusal, `${file}: SheetJS must read it (${listed.reason})`).toBeUndefined();
      expect(ourFault ?? 'our reader read it', `${file}: our reader must refuse it with a 4xx (${listed.reason})`).toMatch(
        /^4\d\d [a-z-]+: /,
      );
      applied.push(`${file}: ${listed.refused ? 'refused by both' : 'refused by us'} (${listed.reason})`);
      return;
    }
    if (listed?.readByUsOnly) {
      expect(theirRefusal, `${file}: SheetJS must still refuse it (${listed.reason})`).toBeDefined();
      expect(ourFault, `${file}: our reader must read it`).toBeUndefined();
      applied.push(`${file}: read by us only (${listed.reason})`);
      return;
    }
    if (theirRefusal !== undefined) throw new Error(`${file}: SheetJS refuses it (${theirRefusal}); ours: ${ourFault ?? 'read it'}`);
    if ('fault' in ours) throw new Error(`${file}: our reader refuses it: ${ours.fault}`);
    if (!('sheets' in reference)) throw new Error('unreachable');

    const comparison = compareBooks(ours.sheets, reference.sheets);
    const listedCells = listed?.cells ?? {};
    const problems: string[] = comparison.sheetList ? [comparison.sheetList] : [];
    const lineEnds = comparison.cells.filter((difference) => listed?.crlf && crlfOnly(difference));
    if (listed?.crlf && lineEnds.length === 0)
      problems.push('differences.ts lists its CR LF line ends, but no cell differs by them any more');
    const unexpected = comparison.cells.filter(
      (difference) => listedCells[difference.cell] !== difference.ours && !lineEnds.includes(difference),
    );
    for (const [cell, value] of Object.entries(listedCells)) {
      const difference = comparison.cells.find((candidate) => candidate.cell === cell);
      if (!difference) problems.push(`${cell} is listed in differences.ts but now reads the same on both sides`);
      else if (difference.ours !== value)
        problems.push(`${cell}: ours ${difference.ours}, listed in differences.ts as ${value} (SheetJS ${difference.sheetjs})`);
    }
    problems.push(
      ...unexpected
        .filter((d) => !(d.cell in listedCells))
        .slice(0, 8)
        .map((d) => `${d.cell}: ours ${d.ours}, SheetJS ${d.sheetjs}`),
    );
    const unlisted = unexpected.filter((d) => !(d.cell in listedCells)).length;
    if (unlisted > 8) problems.push(`... ${unlisted - 8} more differing cells`);
    report({ file, sheetList: comparison.sheetList, cells: unexpected });
    if (Object.keys(listedCells).length > 0 && problems.length === 0)
      applied.push(`${file}: ${Object.keys(listedCells).length} cell(s) (${listed?.reason})`);
    expect(problems, `${file} (${unlisted} unlisted differing cells)`).toEqual([]);
  });
});
