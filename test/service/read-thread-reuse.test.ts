import * as ExcelJS from 'exceljs';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../main/service/errors';
import { streamWorkbookAhead } from '../../main/service/sheets/read-thread';
import type { ParsedRow } from '../../main/service/sheets/sheet-types';

/**
 * Big workbooks are read on a reader thread that is kept for the next workbook. Each read must
 * still see only its own file, from its first row, whatever the read before it did: ended,
 * stopped by its consumer after one batch, or refused late in the file.
 */
const temp = mkdtempSync(join(tmpdir(), 'read-thread-reuse-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const ROWS = 30_000;
const PARIS = 'sys.hcs.Telco.Acme.Paris';

async function writeLines(name: string, header: string[], row: (i: number) => string[], extraSheet?: string[][]): Promise<string> {
  const file = join(temp, name);
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = writer.addWorksheet('LineRelation');
  sheet.addRow(header).commit();
  for (let i = 0; i < ROWS; i += 1) sheet.addRow(row(i)).commit();
  if (extraSheet) {
    const more = writer.addWorksheet('Countries');
    for (const cells of extraSheet) more.addRow(cells).commit();
  }
  await writer.commit();
  // Under 512 KB a workbook is read on the calling thread, and this test would prove nothing.
  expect(statSync(file).size).toBeGreaterThan(512 * 1024);
  return file;
}

let first: string;
let second: string;
let lateFault: string;
beforeAll(async () => {
  first = await writeLines('first.xlsx', ['Hierarchy Node', 'Directory Number', 'Alerting Name'], (i) => [
    PARIS,
    `+3316100${String(i).padStart(6, '0')}`,
    `First ${i}`,
  ]);
  // Other columns, in another order: a reader that kept the last file's columns would misname them.
  second = await writeLines('second.xlsx', ['Alerting Name', 'Hierarchy Node', 'Device', 'Directory Number'], (i) => [
    `Second ${i}`,
    PARIS,
    `SEP${String(i).padStart(12, '0')}`,
    `+3316200${String(i).padStart(6, '0')}`,
  ]);
  lateFault = await writeLines(
    'late-fault.xlsx',
    ['Hierarchy Node', 'Directory Number', 'Alerting Name'],
    (i) => [PARIS, `+3316300${String(i).padStart(6, '0')}`, `Late ${i}`],
    [
      ['Hierarchy Node', 'Country Name', 'No Such Column'],
      [PARIS, 'Atlantis', 'x'],
    ],
  );
}, 120_000);

async function rowsOf(file: string, stopAfterBatches = Infinity): Promise<ParsedRow[]> {
  const rows: ParsedRow[] = [];
  let batches = 0;
  for await (const events of streamWorkbookAhead(file, 'book.xlsx')) {
    for (const event of events) if (event.type === 'row') rows.push(event.row);
    batches += 1;
    if (batches >= stopAfterBatches) break;
  }
  return rows;
}

describe('a reader thread kept from one workbook to the next', () => {
  it('reads each workbook whole and as its own, after a full read, a read stopped early and a refused one', async () => {
    const expectFirst = (rows: ParsedRow[]): void => {
      expect(rows).toHaveLength(ROWS);
      expect(rows[0]).toMatchObject({ rowNumber: 2, data: { pattern: '+3316100000000', alertingName: 'First 0' } });
      expect(rows[ROWS - 1]).toMatchObject({ rowNumber: ROWS + 1, data: { pattern: `+3316100${String(ROWS - 1).padStart(6, '0')}` } });
    };
    const expectSecond = (rows: ParsedRow[]): void => {
      expect(rows).toHaveLength(ROWS);
      expect(rows[0].data).toEqual({ alertingName: 'Second 0', summary_device: 'SEP000000000000', pattern: '+3316200000000' });
      expect(rows[0].columns).toMatchObject({ alertingName: 'A', pattern: 'D' });
      expect(rows[ROWS - 1].data.alertingName).toBe(`Second ${ROWS - 1}`);
    };

    expectFirst(await rowsOf(first));
    expectSecond(await rowsOf(second));

    // The consumer stops after one batch: that reader is mid-file, and must not serve the next read.
    const partial = await rowsOf(first, 1);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(ROWS);
    expectSecond(await rowsOf(second));

    // A refusal found after 30,000 rows, then a clean read again.
    const refusal = await rowsOf(lateFault).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).httpCode).toBe(400);
    expectFirst(await rowsOf(first));
  }, 120_000);
});
