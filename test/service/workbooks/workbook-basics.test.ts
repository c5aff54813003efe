import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookRowPage } from '../../../main/service/contract/workbook-api';
import { compactWorkbook, fixture } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { edit, issues, plainIssues, rows, saved, settled, stage, validateFileIssues } from './workbook-helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

describe('a staged workbook', () => {
  it('stages the LibreOffice LineRelation fixture with the issues method=validate finds', async () => {
    const bytes = fixture('line-relation-libreoffice.xlsx');
    const { info } = await stage(t, bytes);
    expect(info.state, JSON.stringify(info)).toMatch(/draft|validated/);
    expect(info.sheets[0].rows).toBeGreaterThan(0);
    const list = await issues(t, info.id);
    expect(plainIssues(info, list)).toEqual(await validateFileIssues(t, bytes));
    const page = await rows(t, info.id);
    expect(page.total).toBe(info.sheets[0].rows);
    const first = page.rows[0];
    const column = info.sheets[0].columns.find((c) => c.field === 'pattern');
    expect(column).toBeDefined();
    const result = await edit(t, info.id, info.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: first.id, column_id: column!.id, value: 'abc' }],
    });
    expect(result.issues.map((issue) => issue.code)).toContain('bad-pattern');
    const after = await settled(t, info.id);
    const again = await validateFileIssues(t, await saved(t, info.id));
    expect(plainIssues(after, await issues(t, info.id))).toEqual(again);
    const undo = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: result.revision });
    expect(undo.status, undo.text).toBe(200);
    expect(plainIssues(after, await issues(t, info.id))).toEqual(await validateFileIssues(t, bytes));
  });
});

describe('reading a staged workbook page after page', () => {
  it('gives with `after` (a seek from the last row read) the pages `skip` gives, filtered or not', async () => {
    const header = ['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name'];
    const lines = Array.from({ length: 30 }, (_, i) => [
      PARIS,
      'SEP00AA00000004',
      i % 3 === 0 ? `bad number ${i}` : `+3316${String(i).padStart(7, '0')}`,
      `Reader ${i}`,
    ]);
    const { info } = await stage(t, await compactWorkbook('LineRelation', header, lines));
    const pageOf = async (query: string): Promise<WorkbookRowPage> => {
      const reply = await t.get(`/workstation/workbooks/${info.id}/sheets/0/rows/?${query}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body as WorkbookRowPage;
    };
    for (const filter of ['', '&only=errors', '&find=Reader%201']) {
      const bySkip = await pageOf(`limit=1000${filter}`);
      const byAfter: number[] = [];
      let page = await pageOf(`limit=4${filter}`);
      for (;;) {
        byAfter.push(...page.rows.map((row) => row.id));
        expect(page.total, filter).toBe(bySkip.total);
        if (page.next_after === null) break;
        page = await pageOf(`limit=4&after=${page.next_after}${filter}`);
      }
      expect(byAfter, filter).toEqual(bySkip.rows.map((row) => row.id));
      expect(byAfter.length, filter).toBeGreaterThan(4);
    }
    const errors = await pageOf('only=errors&limit=1000');
    expect(errors.rows.map((row) => row.index)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    const late = await pageOf('only=errors&limit=2&after=10&skip=1');
    expect(late.rows.map((row) => row.index)).toEqual([15, 18]);
    expect((await t.get(`/workstation/workbooks/${info.id}/sheets/0/rows/?after=-2`)).status).toBe(400);
  });
});
