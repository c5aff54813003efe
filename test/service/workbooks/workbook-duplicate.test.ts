import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookAnswer, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { openTestService, type TestService } from '../helpers';
import { edit, issues, rows, settled, stage } from './workbook-helpers';

/** Duplicating a staged workbook: a copy to try something on, the original left as it was. */
const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'line-relation-libreoffice.xlsx');

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const cellsOf = async (id: string): Promise<unknown[]> => (await rows(t, id)).rows.map((row) => row.cells);

describe('a duplicated staged workbook', () => {
  it('holds the same sheets and cells, validated anew with the same issues, with a history of its own', async () => {
    const { info } = await stage(t, readFileSync(FIXTURE));
    const numberColumn = info.sheets[0].columns.find((column) => column.field === 'pattern')?.id ?? -1;
    const first = (await rows(t, info.id)).rows[0];
    const edited = await edit(t, info.id, info.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: first.id, column_id: numberColumn, value: 'not a number' }],
    });
    const original = await settled(t, info.id);
    expect(original.counts.errors).toBe(1);

    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/duplicate/`, {});
    expect(reply.status, reply.text).toBe(202);
    const started = (reply.body as WorkbookAnswer).workbook;
    expect(started.id).not.toBe(info.id);
    expect(started.name).toBe(`${info.name} (copy)`);
    const copy: WorkbookInfo = await settled(t, started.id);

    expect(copy.sheets.map((sheet) => [sheet.name, sheet.skipped, sheet.rows])).toEqual(
      original.sheets.map((sheet) => [sheet.name, sheet.skipped, sheet.rows]),
    );
    expect(await cellsOf(copy.id)).toEqual(await cellsOf(info.id));
    expect(copy.counts).toEqual(original.counts);
    const plain = async (id: string): Promise<unknown[]> =>
      (await issues(t, id)).issues.map((issue) => [issue.row, issue.column, issue.code, issue.severity]);
    expect(await plain(copy.id)).toEqual(await plain(info.id));
    // Its own history: nothing to undo in the copy; the original's edit is still the original's.
    expect(copy.can_undo).toBe(false);
    expect(original.can_undo).toBe(true);

    // An edit of the copy (its number put back) leaves the original as it was.
    await edit(t, copy.id, copy.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: first.id, column_id: numberColumn, value: first.cells[String(numberColumn)] ?? null }],
    });
    expect((await settled(t, copy.id)).counts.errors).toBe(0);
    expect((await settled(t, info.id)).counts.errors).toBe(1);
    expect(edited.revision).toBe((await settled(t, info.id)).revision);
  });

  it('is refused for a workbook no one may see, with nothing made', async () => {
    const before = (await t.get('/workstation/workbooks/')).body as { workbooks: unknown[] };
    const reply = await t.call('POST', '/workstation/workbooks/no-such-workbook/duplicate/', {});
    expect(reply.status).toBe(404);
    expect(((await t.get('/workstation/workbooks/')).body as { workbooks: unknown[] }).workbooks).toHaveLength(before.workbooks.length);
  });
});
