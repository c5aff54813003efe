import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookLoadAnswer, WorkbookPlan, WorkbookRow } from '../../../main/service/contract/workbook-api';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { rows, settled, stage } from './workbook-helpers';

/**
 * Plan against load, row by row, on a mixed workbook of the demo world's Paris site: what the
 * plan predicts for each row is what the load then does, except the row whose target another
 * user changed between the two, which is refused as a conflict while the others load. A retry
 * runs only the rows that did not load.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Device', 'Directory Number', 'routePartitionName', 'Alerting Name'];
const ROWS: (string | null)[][] = [
  [PARIS, 'add', 'SEP00AA00000001', '+33140001030', null, 'New One'], // add
  [PARIS, 'add', 'SEP00AA00000002', '+33140001031', null, 'New Two'], // add
  [PARIS, 'modify', null, '+33140001000', 'Paris-PT', 'Renamed Alice'], // modify
  [PARIS, 'modify', null, '+33140001002', 'Paris-PT', 'Bruno Smith'], // unchanged: the name it has
  [PARIS, 'delete', null, '+33140001004', 'Paris-PT', null], // delete
  [PARIS, 'add', 'SEP00AA00000003', '+33140001030', null, 'Twice'], // error: added twice in the workbook
  [PARIS, 'add', null, '+33140001006', 'Paris-PT', 'Taken'], // conflict: the store holds it
  [PARIS, 'add', null, 'not a number', null, 'Bad'], // error
  [PARIS, 'modify', null, '+33140001008', 'Paris-PT', 'Planned Name'], // modify, then changed by someone else
];
const EXPECTED_PLAN = ['add', 'add', 'modify', 'unchanged', 'delete', 'error', 'conflict', 'error', 'modify'];

interface Line {
  pkid: string;
  data: Record<string, unknown>;
}

async function lineAt(pattern: string, partition: string): Promise<Line | undefined> {
  const reply = await t.get(
    `/api/relation/LineRelation/${q(PARIS, `&summary=false&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
  );
  expect(reply.status, reply.text).toBe(200);
  const found = (reply.body.resources as { data: Record<string, unknown>; meta: { pkid: string } }[]).find(
    (resource) => (resource.data.routePartitionName ?? '') === partition,
  );
  return found && { pkid: found.meta.pkid, data: found.data };
}

async function planOf(id: string): Promise<WorkbookPlan> {
  const reply = await t.get(`/workstation/workbooks/${id}/plan/?limit=1000`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as WorkbookPlan;
}

async function loadAndWait(id: string, body: Record<string, unknown>): Promise<{ answer: WorkbookLoadAnswer; info: WorkbookInfo }> {
  const reply = await t.call('POST', `/workstation/workbooks/${id}/load/`, body);
  expect(reply.status, reply.text).toBe(202);
  const answer = reply.body as WorkbookLoadAnswer;
  expect(answer.workbook.state).toBe('loading');
  for (;;) {
    const info = await settled(t, id);
    if (info.state !== 'loading') return { answer, info };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a staged workbook planned, then loaded', () => {
  it('does row by row what the plan said, refuses the row whose target changed since, and retries only what did not load', async () => {
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, ROWS));
    expect(info.counts.rows).toBe(ROWS.length);
    const started = await t.call('POST', `/workstation/workbooks/${info.id}/plan/`, { revision: info.revision });
    expect(started.status, started.text).toBe(202);
    const planned = await settled(t, info.id);
    expect(planned.state).toBe('planned');
    expect(planned.plan?.revision).toBe(planned.revision);
    const plan = await planOf(info.id);
    expect(plan.rows.map((row) => row.action)).toEqual(EXPECTED_PLAN);
    expect(plan.totals).toEqual({ add: 2, modify: 2, delete: 1, unchanged: 1, conflict: 1, error: 2 });
    expect(plan.rows[2].changes).toEqual([{ field: 'alertingName', old: 'Alice Martin', new: 'Renamed Alice' }]);
    expect(plan.rows[6].message).toMatch(/already exists|is Used/);
    expect(plan.rows.map((row) => row.row)).toEqual(ROWS.map((_, index) => index + 2));

    const before = new Map<string, Line | undefined>();
    for (const [pattern, partition] of [
      ['+33140001000', 'Paris-PT'],
      ['+33140001002', 'Paris-PT'],
      ['+33140001004', 'Paris-PT'],
      ['+33140001008', 'Paris-PT'],
    ])
      before.set(pattern, await lineAt(pattern, partition));
    // Someone else changes the last row's target between the plan and the load.
    const target = before.get('+33140001008') as Line;
    const changed = await t.call('PUT', `/api/relation/LineRelation/${target.pkid}/`, { data: { alertingName: 'Changed Meanwhile' } });
    expect(changed.status, changed.text).toBe(200);

    const refused = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: planned.revision });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe('workbook-has-errors');

    const { answer, info: loaded } = await loadAndWait(info.id, { revision: planned.revision, allow_errors: true });
    expect(answer.rows).toBe(ROWS.length);
    expect(loaded.state).toBe('failed');
    expect(loaded.load).toMatchObject({ transaction_id: answer.transaction_id, total: 9, loaded: 5, failed: 3, conflicts: 1, not_run: 0 });
    const outcomes = (await rows(t, info.id)).rows;
    const statuses = outcomes.map((row) => row.outcome?.status);
    expect(statuses).toEqual(['loaded', 'loaded', 'loaded', 'loaded', 'loaded', 'failed', 'failed', 'failed', 'conflict']);
    // The rows the plan flagged (error, conflict) fail as it said; the one changed since is the conflict.
    expect(outcomes[8].outcome?.message).toMatch(/changed since the plan/);

    // What each loaded row did is what its plan entry said.
    expect((await lineAt('+33140001030', ''))?.pkid).toBe(outcomes[0].outcome?.pkid);
    expect((await lineAt('+33140001031', ''))?.data.alertingName).toBe('New Two');
    expect((await lineAt('+33140001000', 'Paris-PT'))?.data).toEqual({
      ...before.get('+33140001000')?.data,
      alertingName: 'Renamed Alice',
    });
    expect((await lineAt('+33140001002', 'Paris-PT'))?.data).toEqual(before.get('+33140001002')?.data);
    expect(await lineAt('+33140001004', 'Paris-PT')).toBeUndefined();
    expect((await lineAt('+33140001008', 'Paris-PT'))?.data.alertingName).toBe('Changed Meanwhile');

    // Each outcome is its sub-transaction's, and the parent lists one per row.
    const parent = await t.get(`/api/tool/Transaction/${answer.transaction_id}/`);
    expect(parent.status, parent.text).toBe(200);
    const subs = parent.body.data.sub_transactions as { transaction_id: string; status: string }[];
    expect(subs).toHaveLength(ROWS.length);
    for (const row of outcomes) {
      const sub = subs.find((entry) => entry.transaction_id === row.outcome?.transaction_id);
      expect(sub?.status, JSON.stringify(row)).toBe(row.outcome?.status === 'loaded' ? 'Success' : 'Fail');
    }

    // Retry: only the four rows that did not load run again; the loaded ones are never run twice.
    const again = await loadAndWait(info.id, { revision: loaded.revision, rows: 'failed', allow_errors: true });
    expect(again.answer.rows).toBe(4);
    const retried = (await rows(t, info.id)).rows;
    const ids = (list: WorkbookRow[]): (string | undefined)[] => list.map((row) => row.outcome?.transaction_id);
    expect(ids(retried).slice(0, 5)).toEqual(ids(outcomes).slice(0, 5));
    expect(
      ids(retried)
        .slice(5)
        .every((id, index) => id !== ids(outcomes)[5 + index]),
    ).toBe(true);
    const nothing = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: loaded.revision, rows: 'failed' });
    expect(nothing.status, nothing.text).toBe(409);
  });

  it('refuses a load on a stale revision, and a plan of another user is not found', async () => {
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, [ROWS[0]]));
    const stale = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: info.revision - 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('revision-conflict');
    const badRows = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: info.revision, rows: 'some' });
    expect(badRows.status).toBe(400);
    expect((await t.get(`/workstation/workbooks/${info.id}/plan/?action=maybe`)).status).toBe(400);
    const none = await planOf(info.id);
    expect(none.planned_revision).toBeNull();
    expect(none.rows).toEqual([]);
  });
});
