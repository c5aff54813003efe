import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  WorkbookAnswer,
  WorkbookEditResult,
  WorkbookInfo,
  WorkbookLoadAnswer,
  WorkbookPlan,
  WorkbookRow,
} from '../../../main/service/contract/workbook-api';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { edit, issues, rows, settled, stage } from './workbook-helpers';

/**
 * Issue 29, point 6: the workbook stays true to the store. After a load, a loaded row is never
 * the duplicate of the instance it made (edited and undone, or in a duplicate of the workbook);
 * edited, it says Load will modify that instance, plans as that modify and loads as it, once.
 * The sheet has an empty row between its lines: every number here is the Excel row's.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Device', 'Directory Number', 'Alerting Name'];
const NAME = 5;

/** A LineRelation sheet with its add rows at Excel rows 2, 3 and 5 (row 4 empty). */
async function linesBook(numbers: string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.getRow(1).values = HEADER;
  [2, 3, 5].forEach((at, place) => {
    sheet.getRow(at).values = [PARIS, 'add', `SEP00AA0000000${place + 1}`, numbers[place], `Line ${place + 1}`];
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function planned(id: string, revision: number): Promise<WorkbookPlan> {
  const started = await t.call('POST', `/workstation/workbooks/${id}/plan/`, { revision });
  expect(started.status, started.text).toBe(202);
  expect((await settled(t, id)).state).toBe('planned');
  const reply = await t.get(`/workstation/workbooks/${id}/plan/?limit=100`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookPlan;
}

async function loaded(id: string, revision: number): Promise<{ answer: WorkbookLoadAnswer; info: WorkbookInfo }> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/load/`, { revision });
  expect(reply.status, reply.text).toBe(202);
  for (;;) {
    const info = await settled(t, id);
    if (info.state !== 'loading') return { answer: reply.body as WorkbookLoadAnswer, info };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function step(id: string, revision: number, way: 'undo' | 'redo'): Promise<WorkbookEditResult> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/${way}/`, { revision });
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookEditResult;
}

/** The Local store's lines of a number at Paris: pkid and alerting name. */
async function linesOf(pattern: string): Promise<{ pkid: string; name: unknown }[]> {
  const reply = await t.get(
    `/api/relation/LineRelation/${q(PARIS, `&summary=false&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
  );
  expect(reply.status, reply.text).toBe(200);
  return (reply.body.resources as { data: Record<string, unknown>; meta: { pkid: string } }[]).map((resource) => ({
    pkid: resource.meta.pkid,
    name: resource.data.alertingName,
  }));
}

const errorsOf = (page: WorkbookRow[]): string[] =>
  page.flatMap((row) => row.issues.filter((issue) => issue.severity === 'error').map((issue) => issue.message));

describe('a loaded row stays true to the store', () => {
  it('edited and undone is not its own duplicate; edited, says Load will modify its instance, plans and loads as that modify, once', async () => {
    const numbers = ['+33140001030', '+33140001031', '+33140001032'];
    let { info } = await stage(t, await linesBook(numbers));
    expect(info.counts.errors).toBe(0);
    const first = await loaded(info.id, info.revision);
    expect(first.info.state).toBe('loaded');
    const before = (await rows(t, info.id)).rows;
    expect(before.map((row) => [row.row, row.outcome?.status])).toEqual([
      [2, 'loaded'],
      [3, 'loaded'],
      [5, 'loaded'],
    ]);
    const third = before[2];
    const made = third.outcome?.pkid;
    expect(made).toBeTruthy();

    // Edited: a warning that the change will modify the instance it made, never an error.
    info = await settled(t, info.id);
    const edited = await edit(t, info.id, info.revision, {
      op: 'set',
      sheet: 0,
      cells: [{ row_id: third.id, column_id: NAME, value: 'Line 3 renamed' }],
    });
    expect(edited.counts.errors).toBe(0);
    const warning = edited.issues.find((issue) => issue.row_id === third.id && issue.code === 'loaded-row-changed');
    expect(warning?.row).toBe(5);
    expect(warning?.column_id).toBe(NAME);
    expect(warning?.message).toMatch(/^Row 5, Alerting Name \(E5\): this row is loaded/);
    expect(warning?.message).toContain(`instance ${made}`);
    expect(warning?.message).toContain("alertingName: 'Line 3' -> 'Line 3 renamed'");
    info = await settled(t, info.id);
    expect(info.load?.changed).toBe(1);

    // Undone: the row is what it loaded as, and the line it created is not its duplicate.
    const undone = await step(info.id, info.revision, 'undo');
    expect(undone.counts.errors).toBe(0);
    expect(undone.counts.warnings).toBe(0);
    expect(errorsOf((await rows(t, info.id)).rows)).toEqual([]);
    info = await settled(t, info.id);
    const unchangedPlan = await planned(info.id, info.revision);
    expect(unchangedPlan.rows.map((row) => [row.row, row.action, row.target_pkid !== null])).toEqual([
      [2, 'unchanged', true],
      [3, 'unchanged', true],
      [5, 'unchanged', true],
    ]);

    // Redone: planned as the modify of that instance, and loaded as it (the number keeps one line).
    info = await settled(t, info.id);
    await step(info.id, info.revision, 'redo');
    info = await settled(t, info.id);
    const modifyPlan = await planned(info.id, info.revision);
    expect(modifyPlan.rows[2]).toMatchObject({
      row: 5,
      action: 'modify',
      target_pkid: made,
      changes: [{ field: 'alertingName', old: 'Line 3', new: 'Line 3 renamed' }],
    });
    expect(modifyPlan.totals).toMatchObject({ modify: 1, unchanged: 2, add: 0, error: 0, conflict: 0 });
    info = await settled(t, info.id);
    const second = await loaded(info.id, info.revision);
    expect(second.answer.rows).toBe(1);
    expect(second.info.state).toBe('loaded');
    expect(second.info.load?.changed).toBe(0);
    expect(await linesOf(numbers[2])).toEqual([{ pkid: made, name: 'Line 3 renamed' }]);
    // Its warning has come true: the row is that instance again, and nothing is left to load.
    expect((await issues(t, info.id)).total).toBe(0);
    const again = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: second.info.revision });
    expect(again.status, again.text).toBe(409);
    expect((again.body as { code: string }).code).toBe('nothing-to-load');
  });

  it('loaded modify and delete rows, checked again or copied, are done: no error, planned unchanged, nothing to load', async () => {
    const book = await compactWorkbook(
      'LineRelation',
      ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name'],
      [
        [PARIS, 'modify', '+33140001000', 'Paris-PT', 'Alice Renamed'],
        [PARIS, 'delete', '+33140001004', 'Paris-PT', null],
      ],
    );
    const { info } = await stage(t, book);
    expect(info.counts.errors).toBe(0);
    const done = await loaded(info.id, info.revision);
    expect(done.info.load?.loaded).toBe(2);
    // Validated again against the store as it is now: the deleted line is gone, which is what the row did.
    const again = await t.call('POST', `/workstation/workbooks/${info.id}/validate/`, {});
    expect(again.status, again.text).toBe(200);
    const checked = await settled(t, info.id);
    expect(checked.counts.errors).toBe(0);
    expect((await planned(info.id, checked.revision)).rows.map((row) => row.action)).toEqual(['unchanged', 'unchanged']);
    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/duplicate/`, {});
    expect(reply.status, reply.text).toBe(202);
    const copy = await settled(t, (reply.body as WorkbookAnswer).workbook.id);
    expect(copy.counts.errors).toBe(0);
    expect((await rows(t, copy.id)).rows.map((row) => row.outcome?.status)).toEqual(['loaded', 'loaded']);
  });

  it('a duplicate of a loaded workbook says which rows are loaded and by which workbook, none in error', async () => {
    const numbers = ['+33140001040', '+33140001041', '+33140001042'];
    const { info } = await stage(t, await linesBook(numbers));
    const original = await loaded(info.id, info.revision);
    expect(original.info.load?.loaded).toBe(3);
    const made = (await rows(t, info.id)).rows.map((row) => row.outcome?.pkid);

    const reply = await t.call('POST', `/workstation/workbooks/${info.id}/duplicate/`, {});
    expect(reply.status, reply.text).toBe(202);
    const copy = await settled(t, (reply.body as WorkbookAnswer).workbook.id);
    expect(copy.counts.errors).toBe(0);
    expect(copy.load).toMatchObject({ loaded: 3, total: 3, failed: 0, changed: 0 });
    const copied = (await rows(t, copy.id)).rows;
    expect(errorsOf(copied)).toEqual([]);
    expect(copied.map((row) => [row.row, row.outcome?.status, row.outcome?.pkid])).toEqual([
      [2, 'loaded', made[0]],
      [3, 'loaded', made[1]],
      [5, 'loaded', made[2]],
    ]);
    for (const row of copied) expect(row.outcome?.message).toContain(`workbook '${info.name}'`);
    const plan = await planned(copy.id, copy.revision);
    expect(plan.rows.map((row) => row.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    // Nothing to load in the copy; the original's lines are still one each.
    const load = await t.call('POST', `/workstation/workbooks/${copy.id}/load/`, { revision: (await settled(t, copy.id)).revision });
    expect(load.status, load.text).toBe(409);
    for (const number of numbers) expect(await linesOf(number)).toHaveLength(1);
  });
});
