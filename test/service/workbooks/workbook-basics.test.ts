import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../bulk-validate-helpers';
import { openTestService, type TestService } from '../helpers';
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
