import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookAnswer } from '../../../main/service/contract/workbook-api';
import { openTestService, PARIS, type TestService } from '../helpers';
import { edit, rows, settled } from './workbook-helpers';

/**
 * A template's empty sheet takes a block pasted in its first empty row (issue 32, point 7): a
 * paste named by `index` (the sheet's row count) adds its rows after the last, one revision that
 * one undo takes back; an `index` anywhere else is refused, saying how to name a row.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

describe('a paste after the last row', () => {
  it('adds the block as rows of an empty template, and is refused anywhere but after the last row', async () => {
    const made = await t.call('POST', '/workstation/workbooks/', {
      from: 'template',
      model_type: 'relation/LineRelation',
      hierarchy: PARIS,
    });
    expect(made.status, made.text).toBeLessThan(300);
    const info = await settled(t, (made.body as WorkbookAnswer).workbook.id);
    const [sheet] = info.sheets;
    expect(sheet.rows).toBe(0);
    const pattern = sheet.columns.find((column) => column.name === 'pattern' || column.title === 'Directory Number');
    if (!pattern) throw new Error('no Directory Number column');
    const tsv = '+33140001801\tPasted One\r\n+33140001802\tPasted Two\r\n';
    const done = await edit(t, info.id, info.revision, { op: 'paste', sheet: 0, index: 0, column_id: pattern.id, tsv });
    expect(done.can_undo).toBe(true);
    const page = await rows(t, info.id);
    expect(page.rows.map((row) => row.cells[String(pattern.id)])).toEqual(['+33140001801', '+33140001802']);

    const now = await settled(t, info.id);
    const refused = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: now.revision,
      edit: { op: 'paste', sheet: 0, index: 7, column_id: pattern.id, tsv },
    });
    expect([refused.status, refused.body.code]).toEqual([400, 'bad-edit']);
    expect(refused.body.message).toMatch(/after the last row of sheet '[^']*LineRelation' only \(2\)/);

    const undone = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: now.revision });
    expect(undone.status, undone.text).toBe(200);
    expect((await rows(t, info.id)).rows).toHaveLength(0);
  });
});
