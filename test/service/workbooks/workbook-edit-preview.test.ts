import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookEditPreview, WorkbookInfo } from '../../../main/service/contract/workbook-api';
import { openTestService, PARIS, type TestService } from '../helpers';
import { edit, rows, settled, stage } from './workbook-helpers';
import { compactWorkbook } from '../bulk-validate-helpers';

/**
 * Replace all's confirmation (issue 32, point 5): POST .../edits/preview/ answers what an edit
 * would change, the count and the first changes with their value now and after, and changes
 * nothing: the revision, the rows and the history stay as they were. A refused edit is refused
 * as the edit itself would be.
 */
/** `count` lines at Paris named "Line <i>". */
const lineRelationBook = (count: number): Promise<Buffer> =>
  compactWorkbook(
    'LineRelation',
    ['Hierarchy Node', 'Directory Number', 'Alerting Name'],
    Array.from({ length: count }, (_, i) => [PARIS, `+3316${String(5000 + i).padStart(7, '0')}`, `Line ${i}`]),
  );

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

describe('an edit previewed', () => {
  it('answers how many cells a replace would change and the first of them, and changes nothing', async () => {
    const { info } = await stage(t, await lineRelationBook(30), PARIS);
    const before = await settled(t, info.id);
    const rowsBefore = (await rows(t, info.id)).rows.map((row) => row.cells);
    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/edits/preview/`, {
      edit: { op: 'replace', find: 'Line', replace: 'Poste', within: { sheet: 0 } },
    });
    expect(reply.status, reply.text).toBe(200);
    const preview = reply.body as WorkbookEditPreview;
    expect(preview.changed).toBe(30);
    expect(preview.first).toHaveLength(10);
    expect(preview.first[0]).toMatchObject({ row: 2, column: 'Alerting Name' });
    expect(preview.first[0].after).toBe(preview.first[0].before.replace('Line', 'Poste'));
    const after: WorkbookInfo = await settled(t, info.id);
    expect([after.revision, after.can_undo]).toEqual([before.revision, before.can_undo]);
    expect((await rows(t, info.id)).rows.map((row) => row.cells)).toEqual(rowsBefore);

    // The edit itself changes what the preview said.
    const done = await edit(t, info.id, after.revision, { op: 'replace', find: 'Line', replace: 'Poste', within: { sheet: 0 } });
    expect(done.changed).toBe(preview.changed);
  });

  it('refuses what the edit would refuse, with its reason', async () => {
    const { info } = await stage(t, await lineRelationBook(2), PARIS);
    const bad = await t.call('POST', `/workstation/workbooks/${info.id}/edits/preview/`, {
      edit: { op: 'replace', find: '(', replace: 'x', regex: true },
    });
    expect([bad.status, bad.body.code]).toEqual([400, 'bad-edit']);
    const get = await t.call('GET', `/workstation/workbooks/${info.id}/edits/preview/`);
    expect(get.status).toBe(405);
  });
});
