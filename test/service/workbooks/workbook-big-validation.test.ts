import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookEditResult, WorkbookInfo, WorkbookPlan } from '../../../main/service/contract/workbook-api';
import { compiledWorker } from '../../../main/service/worker-script';
import { workbookOf } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { issues, plainIssues, rows, saved, settled, stage, validateFileIssues } from './workbook-helpers';

/**
 * A workbook of 5,000 rows or more is read, and its added rows prechecked, on a reader thread
 * beside the validator (workbooks/staged-row-reader.ts); a plan or a validation after the first
 * then compares each row with its stored outcome as decoded there. Whatever the thread did, a
 * big workbook's issues must be those of `method=validate` on the same content as a file: after
 * staging, after a plan, and after edits and a second plan.
 */
const LINES = 6_000;
const PHONES = 300;

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  const script = compiledWorker(`${__dirname}/../../../main/service/sheets`, 'sheets', 'read-thread-worker.js');
  if (!script)
    console.log('workbook-big-validation: no compiled reader thread (run `npm run build`): the rows are read on the validating thread');
});
afterAll(() => t.close());

const phoneName = (i: number): string => `SEPBF${String(i).padStart(10, '0')}`;

/** Numbers: every 25th not a number, every 101st the number of the row before it (a duplicate in the workbook). */
function numberOf(i: number): string {
  if (i % 25 === 7) return `not-a-number-${i}`;
  if (i % 101 === 50) return numberOf(i - 1);
  return `+3319${String(i).padStart(7, '0')}`;
}

function bigBook(): Promise<Buffer> {
  const lines: (string | null)[][] = [['Hierarchy Node', 'Action', 'Device', 'CFT Template', 'Directory Number', 'Alerting Name']];
  for (let i = 0; i < LINES; i += 1) {
    // Every 333rd row names a phone nobody adds; the others 20 lines a phone, from the sheet before.
    const device = i % 333 === 100 ? 'SEPNOSUCHPHONE1' : phoneName(Math.floor(i / 20));
    lines.push([PARIS, 'add', device, 'Acme Line Defaults', numberOf(i), `Person ${i}`]);
  }
  const phones: string[][] = [['Hierarchy Node', 'name', 'product', 'protocol']];
  for (let i = 0; i < PHONES; i += 1) phones.push([PARIS, phoneName(i), 'Cisco 8845', 'SIP']);
  return workbookOf([
    { name: 'Phone', rows: phones },
    { name: 'LineRelation', rows: lines },
  ]);
}

async function planned(info: WorkbookInfo): Promise<{ info: WorkbookInfo; plan: WorkbookPlan }> {
  const started = await t.call('POST', `/workstation/workbooks/${info.id}/plan/`, { revision: info.revision });
  expect(started.status, started.text).toBe(202);
  const after = await settled(t, info.id);
  expect(after.state).toBe('planned');
  const reply = await t.get(`/workstation/workbooks/${info.id}/plan/?limit=10`);
  expect(reply.status, reply.text).toBe(200);
  return { info: after, plan: reply.body as WorkbookPlan };
}

describe('a big staged workbook (rows read on the reader thread)', () => {
  it('has the issues of method=validate after staging, after a plan, and after edits and another plan', async () => {
    const bytes = await bigBook();
    const expected = await validateFileIssues(t, bytes);
    const bad = Math.ceil(LINES / 25);
    expect(expected.length).toBeGreaterThanOrEqual(bad);

    const { info } = await stage(t, bytes);
    expect(info.counts.rows).toBe(LINES + PHONES);
    expect(plainIssues(info, await issues(t, info.id))).toEqual(expected);

    const first = await planned(info);
    expect(plainIssues(first.info, await issues(t, info.id))).toEqual(expected);
    const totals = first.plan.totals;
    expect(totals.add + totals.error + totals.conflict).toBe(LINES + PHONES);
    expect(totals.error + totals.conflict).toBeGreaterThanOrEqual(bad);

    // Fix the first bad number; make row 3,000's number the one row 2,999 takes; clear a duplicate.
    const lines = first.info.sheets[1];
    const numberColumn = lines.columns.find((column) => column.field === 'pattern')?.id;
    if (numberColumn === undefined) throw new Error('no Directory Number column');
    const page = (await rows(t, info.id, 1)).rows;
    const cells = [
      { row_id: page[7].id, column_id: numberColumn, value: '+33190000007' },
      { row_id: page[3000].id, column_id: numberColumn, value: numberOf(2999) },
      { row_id: page[50].id, column_id: numberColumn, value: '+33198000050' },
    ];
    const edited = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: first.info.revision,
      edit: { op: 'set', sheet: 1, cells },
    });
    expect(edited.status, edited.text).toBe(200);
    const afterEdit = await settled(t, info.id);
    expect(afterEdit.revision).toBe((edited.body as WorkbookEditResult).revision);

    const second = await planned(afterEdit);
    const file = await saved(t, info.id);
    const now = plainIssues(second.info, await issues(t, info.id));
    expect(now).toEqual(await validateFileIssues(t, file));
    expect(now).not.toEqual(expected);
    expect(second.plan.totals.error + second.plan.totals.conflict).toBe(totals.error + totals.conflict - 1);
  }, 240_000);
});
