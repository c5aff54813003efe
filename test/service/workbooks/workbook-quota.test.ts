import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { compactWorkbook, LINE_HEADER, line } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { rows, settled, stage } from './workbook-helpers';

/**
 * Issue 30, finding 7: nothing bounded what one user keeps staged (a 6 KB file could store a
 * million rows, and any number of them). Here a user may keep 3 workbooks and 100 rows; past
 * either, the answer (or the staging's problem) is a 409 in the fault shape naming the workbooks
 * to delete, and nothing is stored beyond the bound.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true, workbookQuota: { workbooks: 3, rows: 100 } });
});
afterAll(() => t.close());

const linesBook = (count: number, first: number): Promise<Buffer> =>
  compactWorkbook(
    'LineRelation',
    LINE_HEADER,
    Array.from({ length: count }, (_, i) =>
      line({ action: 'add', pattern: `+3314009${String(first + i).padStart(4, '0')}`, name: `Q ${i}` }),
    ),
  );

const storedRows = (): number => (t.service.store.db.prepare('SELECT COUNT(*) AS n FROM workbook_rows').get() as { n: number }).n;

describe("one user's staged workbooks are bounded", () => {
  let big: WorkbookInfo;
  let small: WorkbookInfo;

  it('stages within the bound, and fails a staging that would pass it, saying what to delete', async () => {
    big = (await stage(t, await linesBook(50, 0))).info;
    small = (await stage(t, await linesBook(40, 100))).info;
    expect(big.counts.rows + small.counts.rows).toBe(90);
    const over = (await stage(t, await linesBook(30, 200))).info;
    expect(over.state).toBe('failed');
    expect(over.problem).toMatch(/more than the 100 rows one user may keep/);
    // The biggest workbook is named first: the one worth deleting.
    expect(over.problem).toContain(`'${big.name}' (50 rows`);
    expect(storedRows()).toBe(90);
  });

  it('refuses a workbook past the count with 409 workbook-quota naming the workbooks, and stores nothing', async () => {
    const reply = await t.call('POST', '/workstation/workbooks/', {
      from: 'template',
      model_type: 'relation/LineRelation',
      hierarchy: PARIS,
    });
    expect(reply.status, reply.text).toBe(409);
    expect(reply.body).toMatchObject({ success: false, http_code: 409, code: 'workbook-quota' });
    expect(reply.body.message).toMatch(/You keep 3 staged workbooks, the most one user may keep \(3\)\. Delete workbooks/);
    expect(reply.body.details.map((detail: { field: string }) => detail.field)).toContain(big.id);
    expect((await t.call('GET', '/workstation/workbooks/')).body.workbooks).toHaveLength(3);
  });

  it('refuses a duplicate or a paste that adds rows past the bound, applying nothing', async () => {
    const failed = (await t.call('GET', '/workstation/workbooks/')).body.workbooks.find((entry: WorkbookInfo) => entry.state === 'failed');
    expect((await t.call('DELETE', `/workstation/workbooks/${failed.id}/`)).status).toBe(200);
    const copy = await t.call('POST', `/workstation/workbooks/${small.id}/duplicate/`, {});
    expect(copy.status, copy.text).toBe(409);
    expect(copy.body.code).toBe('workbook-quota');
    const tsv = Array.from({ length: 20 }, (_, i) => `+331400980${String(i).padStart(2, '0')}`).join('\n');
    const column = small.sheets[0].columns.find((entry) => entry.field === 'pattern')?.id as number;
    const lastRow = (await rows(t, small.id)).rows.at(-1)?.id as number;
    const pasted = await t.call('POST', `/workstation/workbooks/${small.id}/edits/`, {
      revision: small.revision,
      edit: { op: 'paste', sheet: 0, row_id: lastRow, column_id: column, tsv },
    });
    expect(pasted.status, pasted.text).toBe(409);
    expect(pasted.body.code).toBe('workbook-quota');
    const after = await settled(t, small.id);
    expect(after.revision).toBe(small.revision);
    expect(after.counts.rows).toBe(40);
    // A paste within the bound still works: 10 rows past the end make 100.
    const fits = await t.call('POST', `/workstation/workbooks/${small.id}/edits/`, {
      revision: small.revision,
      edit: { op: 'paste', sheet: 0, row_id: lastRow, column_id: column, tsv: tsv.split('\n').slice(0, 11).join('\n') },
    });
    expect(fits.status, fits.text).toBe(200);
    expect(storedRows()).toBe(100);
  });

  it('takes a new workbook again once one is deleted', async () => {
    expect((await t.call('DELETE', `/workstation/workbooks/${big.id}/`)).status).toBe(200);
    const again = (await stage(t, await linesBook(30, 300))).info;
    expect(again.state).not.toBe('failed');
    expect(again.counts.rows).toBe(30);
  });
});
