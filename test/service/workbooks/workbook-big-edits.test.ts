import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookRowPage } from '../../../main/service/contract/workbook-api';
import { applyOps } from '../../../main/service/workbooks/workbook-ops';
import { compactWorkbook, LINE_HEADER, line } from '../bulk-validate-helpers';
import { openTestService, type TestService } from '../helpers';
import { edit, rows, settled, stage } from './workbook-helpers';

/**
 * Issue 30, finding 3: an edit of more than 2,000 rows or cells, and its undo and redo, are
 * applied in slices of their own commits (sliced-apply.ts) and still make one revision whose undo
 * puts every row back where it was. A process killed between two slices leaves the workbook at
 * its last whole revision at the next start.
 */
let t: TestService;
let info: WorkbookInfo;
const ROWS = 3_000;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const book = await compactWorkbook(
    'LineRelation',
    LINE_HEADER,
    Array.from({ length: ROWS }, (_, i) => line({ action: 'add', pattern: `+3314100${String(i).padStart(4, '0')}`, name: `Big ${i}` })),
  );
  info = (await stage(t, book)).info;
}, 120_000);
afterAll(() => t.close());

/** Every row of sheet 0, in order (pages of 5,000). */
async function allRows(id: string): Promise<WorkbookRowPage['rows']> {
  const all: WorkbookRowPage['rows'] = [];
  for (;;) {
    const page = await rows(t, id, 0, `&skip=${all.length}`);
    all.push(...page.rows);
    if (page.rows.length < 5000) return all;
  }
}
const numbers = async (id: string): Promise<string[]> => (await allRows(id)).map((row) => String(row.cells['5'] ?? ''));
const history = async (id: string): Promise<unknown[]> => (await t.call('GET', `/workstation/workbooks/${id}/history/`)).body.history;

describe('big edits in slices', () => {
  it('inserts 2,500 rows mid-sheet, deletes 2,500 scattered ones, and undoes and redoes both exactly, one revision each', async () => {
    const original = await numbers(info.id);
    const inserted = await edit(t, info.id, info.revision, { op: 'insert_rows', sheet: 0, at: 1000, count: 2_500 });
    const afterInsert = await numbers(info.id);
    expect(afterInsert).toHaveLength(ROWS + 2_500);
    expect(afterInsert.slice(0, 1000)).toEqual(original.slice(0, 1000));
    expect(afterInsert.slice(1000, 3500).every((value) => value === '')).toBe(true);
    expect(afterInsert.slice(3500)).toEqual(original.slice(1000));
    // Every other row of the sheet, 2,750 of them, in one edit.
    const page = await allRows(info.id);
    const doomed = page.filter((_, index) => index % 2 === 0).map((row) => row.id);
    const deleted = await edit(t, info.id, inserted.revision, { op: 'delete_rows', sheet: 0, row_ids: doomed });
    const afterDelete = await numbers(info.id);
    expect(afterDelete).toEqual(afterInsert.filter((_, index) => index % 2 === 1));
    expect((await allRows(info.id)).map((row) => row.index)).toEqual(afterDelete.map((_, index) => index));
    expect(await history(info.id)).toHaveLength(2);
    const undo = async (revision: number, way: 'undo' | 'redo'): Promise<number> => {
      const reply = await t.call('POST', `/workstation/workbooks/${info.id}/${way}/`, { revision });
      expect(reply.status, reply.text).toBe(200);
      return reply.body.revision;
    };
    let revision = await undo(deleted.revision, 'undo');
    expect(await numbers(info.id)).toEqual(afterInsert);
    revision = await undo(revision, 'undo');
    expect(await numbers(info.id)).toEqual(original);
    revision = await undo(revision, 'redo');
    expect(await numbers(info.id)).toEqual(afterInsert);
    await undo(revision, 'redo');
    expect(await numbers(info.id)).toEqual(afterDelete);
    const now = await settled(t, info.id);
    expect(now.counts.rows).toBe(afterDelete.length);
    expect(t.service.store.workbooks.pendingWorkbooks()).toEqual([]);
  }, 120_000);

  it('pastes 3,000 rows past the end with their cells (each counted changed), undone in one step', async () => {
    const before = await numbers(info.id);
    const start = await settled(t, info.id);
    const last = (await allRows(info.id)).at(-1)?.id as number;
    const column = start.sheets[0].columns.find((entry) => entry.field === 'pattern')?.id as number;
    const tsv = Array.from({ length: 3_001 }, (_, i) => `+3314200${String(i).padStart(4, '0')}\tPasted ${i}`).join('\n');
    const pasted = await edit(t, info.id, start.revision, { op: 'paste', sheet: 0, row_id: last, column_id: column, tsv });
    expect(pasted.changed).toBe(2 + 3_000 * 2);
    const after = await numbers(info.id);
    expect(after).toHaveLength(before.length + 3_000);
    expect(after.at(-1)).toBe('+33142003000');
    const undone = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: pasted.revision });
    expect(undone.status, undone.text).toBe(200);
    expect(await numbers(info.id)).toEqual(before);
  }, 120_000);

  it('refuses a paste of 3,000,000 empty lines with 400 (it overflowed a call into a 500)', async () => {
    const start = await settled(t, info.id);
    const first = (await rows(t, info.id)).rows[0].id;
    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: start.revision,
      edit: { op: 'paste', sheet: 0, row_id: first, column_id: start.sheets[0].columns[0].id, tsv: '\n'.repeat(3_000_000) },
    });
    expect(reply.status, reply.text.slice(0, 300)).toBe(400);
    expect(reply.body.message).toMatch(/paste at most 100,000 new rows/);
  }, 60_000);

  it('undoes at the next start the slices of an edit a killed process left', async () => {
    const wb = (t.service.store.workbooks.get(info.id) as { wb: number }).wb;
    const before = await numbers(info.id);
    const revision = (await settled(t, info.id)).revision;
    // Two slices of an edit committed, its revision never written: as a kill between slices leaves it.
    const first = t.service.store.workbooks.takeRowIds(wb, 2);
    for (const [part, rowId] of [first, first + 1].entries())
      t.service.store.db.transaction(() => {
        const done = applyOps(t.service.store, wb, [['insert', 0, 0, [[rowId, JSON.stringify({ 5: `+3319999999${part}` })]]]]);
        t.service.store.workbooks.addPending(wb, part, JSON.stringify(done.inverse));
      })();
    expect(await numbers(info.id)).toHaveLength(before.length + 2);
    const { dataDir } = t;
    t.service.close();
    t = await openTestService({ dataDir });
    expect(await numbers(info.id)).toEqual(before);
    expect((await settled(t, info.id)).revision).toBe(revision);
    expect(t.service.store.workbooks.pendingWorkbooks()).toEqual([]);
  }, 120_000);
});
