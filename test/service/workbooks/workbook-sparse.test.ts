import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { LINE_HEADER, line } from '../bulk-validate-helpers';
import { openTestService, type TestService } from '../helpers';
import { edit, issues, rows, saved, settled, stage } from './workbook-helpers';

/**
 * Class 8 of the issue "Every real-world workbook read...": rows without content are not rows.
 * A sheet with a few rows far apart stages as those rows, each with its Excel row number in the
 * rows, the issues and the saved file, and the row limit counts rows that hold a value.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

/** A LineRelation sheet with rows at these Excel row numbers (the header in row 1). */
async function sparseBook(rowsAt: Map<number, ReturnType<typeof line>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.getRow(1).values = LINE_HEADER;
  // line() gives plain texts and nulls here: no cell of these rows is placed or styled.
  for (const [number, values] of rowsAt) sheet.getRow(number).values = values as (string | null)[];
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const numbersOf = async (id: string): Promise<[number, string][]> =>
  (await rows(t, id)).rows.map((row) => [row.row, String(row.cells['5'] ?? '')]);

async function step(id: string, info: WorkbookInfo, way: 'undo' | 'redo'): Promise<WorkbookInfo> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/${way}/`, { revision: info.revision });
  expect(reply.status, reply.text).toBe(200);
  return settled(t, id);
}

describe('class 8: a sparse sheet, rows without content are not rows', () => {
  it('stages a file with one cell at row 999,990 as one row numbered 999,990', async () => {
    const { info } = await stage(t, await sparseBook(new Map([[999_990, line({ action: 'add', pattern: 'not a number', name: 'Far' })]])));
    expect(info.counts.rows).toBe(1);
    const page = await rows(t, info.id);
    expect(page.total).toBe(1);
    expect(page.rows.map((row) => row.row)).toEqual([999_990]);
    const listed = await issues(t, info.id);
    expect(listed.issues.length).toBeGreaterThan(0);
    expect(new Set(listed.issues.map((issue) => issue.row))).toEqual(new Set([999_990]));
    expect(listed.issues.some((issue) => issue.message.startsWith('Row 999990'))).toBe(true);
  });

  it('keeps each row its Excel number through inserts, deletes, undo and a save', async () => {
    const book = await sparseBook(
      new Map([
        [3, line({ action: 'add', pattern: '+33140001901', name: 'A' })],
        [4, line({ action: 'add', pattern: '+33140001902', name: 'B' })],
        [10, line({ action: 'add', pattern: '+33140001903', name: 'C' })],
        [20, line({ action: 'add', pattern: '+33140001904', name: 'D' })],
      ]),
    );
    let { info } = await stage(t, book);
    const id = info.id;
    expect(await numbersOf(id)).toEqual([
      [3, '+33140001901'],
      [4, '+33140001902'],
      [10, '+33140001903'],
      [20, '+33140001904'],
    ]);
    // Two rows inserted above row 10 go right after row 4; the rows below move down by two.
    await edit(t, id, info.revision, { op: 'insert_rows', sheet: 0, at: 2, count: 2 });
    info = await settled(t, id);
    expect((await numbersOf(id)).map(([row]) => row)).toEqual([3, 4, 5, 6, 12, 22]);
    // Deleting the row numbered 12 takes it out, as deleting one row in Excel would: row 22 becomes 21.
    const twelve = (await rows(t, id)).rows.find((row) => row.row === 12);
    await edit(t, id, info.revision, { op: 'delete_rows', sheet: 0, row_ids: [twelve?.id] });
    info = await settled(t, id);
    expect(await numbersOf(id)).toEqual([
      [3, '+33140001901'],
      [4, '+33140001902'],
      [5, ''],
      [6, ''],
      [21, '+33140001904'],
    ]);
    info = await step(id, info, 'undo');
    expect((await numbersOf(id)).map(([row]) => row)).toEqual([3, 4, 5, 6, 12, 22]);
    info = await step(id, info, 'undo');
    expect((await numbersOf(id)).map(([row]) => row)).toEqual([3, 4, 10, 20]);
    info = await step(id, info, 'redo');
    expect((await numbersOf(id)).map(([row]) => row)).toEqual([3, 4, 5, 6, 12, 22]);

    // The saved file keeps the numbers, and reads back the same.
    const file = new ExcelJS.Workbook();
    await file.xlsx.load((await saved(t, id)) as unknown as ArrayBuffer);
    const patterns: [number, string][] = [];
    file.worksheets[0].eachRow((row, number) => {
      if (number > 1) patterns.push([number, String(row.getCell(5).value ?? '')]);
    });
    expect(patterns).toEqual([
      [3, '+33140001901'],
      [4, '+33140001902'],
      [12, '+33140001903'],
      [22, '+33140001904'],
    ]);
  });

  it('counts only rows with a value against the row limit', async () => {
    // 34 rows far apart, the last at Excel's last row: the first reader refused it as "more than 1,000,000 rows".
    const far = new Map<number, ReturnType<typeof line>>();
    for (let index = 0; index < 34; index += 1) {
      far.set(
        index === 33 ? 1_048_576 : 2 + index * 30_000,
        line({ action: 'add', pattern: `+3314000${2000 + index}`, name: `Row ${index}` }),
      );
    }
    const { info } = await stage(t, await sparseBook(far));
    expect(info.state).not.toBe('failed');
    expect(info.counts.rows).toBe(34);
    expect((await rows(t, info.id)).rows.at(-1)?.row).toBe(1_048_576);
  });
});
