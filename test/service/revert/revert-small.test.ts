import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook, upload, workbookOf } from '../bulk-validate-helpers';
import { ACME, openTestService, PARIS, q, type TestService } from '../helpers';
import { instancesOf, linkOf, loadWorkbook, loadFile, planRows, revertPlan } from './revert-helpers';

/**
 * Reverts of small loads in the demo world, with phones: the instance a load made, changed and
 * deleted comes back exactly (its pkid, its device line's pkid, its place among the phone's
 * lines), and a phone changed by one row and given a line by a later one is put back too. A
 * scheduled load is reverted like any other once it has run (not while it waits).
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Device', 'Directory Number', 'routePartitionName', 'Alerting Name'];

describe('reverting a small load', () => {
  it('puts back what it added, changed and deleted', async () => {
    const before = instancesOf(t);
    const { transactionId } = await loadFile(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        [PARIS, 'add', 'SEP00AA00000001', '+33140001030', null, 'New One'],
        [PARIS, 'add', null, '+33140001031', null, 'New Two'],
        [PARIS, 'modify', null, '+33140001000', 'Paris-PT', 'Renamed Alice'],
        [PARIS, 'delete', null, '+33140001004', 'Paris-PT', null],
      ]),
      PARIS,
    );
    expect(instancesOf(t)).not.toEqual(before);
    const { answer, info } = await revertPlan(t, transactionId);
    expect(answer.rows).toBe(4);
    const plan = await planRows(t, info.id);
    expect(plan.map((row) => row.action)).toEqual(['add', 'modify', 'delete', 'delete']);
    const { transactionId: revertId, info: after } = await loadWorkbook(t, info);
    expect(after.state, JSON.stringify(after.load)).toBe('loaded');
    const now = instancesOf(t);
    const differing = [...new Set([...before.keys(), ...now.keys()])].filter((pkid) => before.get(pkid) !== now.get(pkid));
    expect(differing.map((pkid) => [before.get(pkid), now.get(pkid)])).toEqual([]);
    expect((await linkOf(t, transactionId)).reverted_by.map((revert) => revert.loads)).toEqual([[revertId]]);
    expect((await linkOf(t, revertId)).reverts).toBe(transactionId);
  });

  it('puts back a phone the load changed and then put a line on: its row runs once the line is gone again', async () => {
    const before = instancesOf(t);
    const { transactionId } = await loadFile(
      t,
      await workbookOf([
        {
          name: 'device_cucm_Phone',
          rows: [
            ['Hierarchy Node', 'Action', 'name', 'description'],
            [PARIS, 'modify', 'SEP00AA00000005', 'Moved to the lab'],
          ],
        },
        { name: 'relation_LineRelation', rows: [HEADER, [PARIS, 'add', 'SEP00AA00000005', '+33140001033', null, 'On The Lab Phone']] },
      ]),
      PARIS,
    );
    const { info } = await revertPlan(t, transactionId);
    // The phone's row is not compared by the plan (the line's row changes it first), it is checked when it runs.
    expect((await planRows(t, info.id)).map((row) => [row.action, row.message])).toEqual([
      ['delete', null],
      ['modify', null],
    ]);
    const { info: after } = await loadWorkbook(t, info);
    expect(after.load).toMatchObject({ loaded: 2, failed: 0, conflicts: 0 });
    const now = instancesOf(t);
    const differing = [...new Set([...before.keys(), ...now.keys()])].filter((pkid) => before.get(pkid) !== now.get(pkid));
    expect(differing.map((pkid) => [before.get(pkid), now.get(pkid)])).toEqual([]);
  });

  it('reverts a scheduled load once it has run', async () => {
    const before = instancesOf(t);
    const bytes = await compactWorkbook('LineRelation', HEADER, [[PARIS, 'add', null, '+33140001034', null, 'Scheduled One']]);
    expect((await upload(t, 'scheduled.xlsx', bytes, PARIS)).status).toBe(200);
    const soon = new Date(Date.now() + 1000).toISOString();
    const scheduled = await t.call('POST', `/api/tool/BulkLoad/${q(ACME, '&method=bulkload_spreadsheet')}`, {
      bulkload_file: 'scheduled.xlsx',
      execute_immediately: false,
      ...{ execute_date: soon.slice(0, 10), execute_time: soon.slice(11, 19), execute_timezone: 0 },
    });
    expect(scheduled.status, scheduled.text).toBe(202);
    const loadId = scheduled.body.transaction_id as string;
    const early = await t.call('POST', `/workstation/transactions/${loadId}/revert/`);
    expect(early.body).toMatchObject({ http_code: 409, code: 'load-running' });
    for (let waited = 0; (await t.get(`/api/tool/Transaction/${loadId}/`)).body.data.status !== 'Success'; waited += 100) {
      expect(waited).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { info } = await revertPlan(t, loadId);
    expect(info.plan?.totals).toMatchObject({ delete: 1, conflict: 0, error: 0 });
    expect((await loadWorkbook(t, info)).info.state).toBe('loaded');
    expect(instancesOf(t)).toEqual(before);
  });
});
