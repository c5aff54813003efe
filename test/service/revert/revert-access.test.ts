import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, compactWorkbook, upload } from '../bulk-validate-helpers';
import { LONDON, openTestService, PARIS, q, type Reply, type TestService } from '../helpers';
import { loadFile, revertPlan } from './revert-helpers';

/**
 * Who may revert what, and what is refused, over POST /workstation/transactions/<id>/revert/:
 * a load within the caller's reach by a role that may load, in the fault shape of decisions.md;
 * a session must echo its CSRF token; a load changed after its plan is refused row by row.
 */
let t: TestService;
let loadId: string;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const [username, role, hierarchy] of [
    ['paris-op', 'operator', PARIS],
    ['london-admin', 'admin', LONDON],
  ]) {
    const made = await t.call('POST', `/api/data/User/${q(hierarchy)}`, { data: { username, role, password: 'a-long-password-1' } });
    expect(made.status, made.text).toBe(200);
  }
  const header = ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name'];
  ({ transactionId: loadId } = await loadFile(
    t,
    await compactWorkbook('LineRelation', header, [
      [PARIS, 'add', '+33140001040', 'Paris-PT', 'Access One'],
      [PARIS, 'modify', '+33140001000', 'Paris-PT', 'Access Two'],
    ]),
    PARIS,
  ));
}, 60_000);
afterAll(() => t.close());

const revert = (id: string, headers: Record<string, string> = {}): Promise<Reply> =>
  t.call('POST', `/workstation/transactions/${id}/revert/`, undefined, headers);

describe('reverting a load: who and what', () => {
  it('refuses an unknown transaction, a row, a transaction that is not a load, another site and a role that may not load', async () => {
    const unknown = await revert('00000000-0000-4000-8000-000000000000');
    expect(unknown.body).toMatchObject({ success: false, http_code: 404, code: 'not-found' });
    const parent = await t.get(`/api/tool/Transaction/${loadId}/${q(PARIS)}`);
    const row = await revert(parent.body.data.sub_transactions[0].transaction_id);
    expect(row.body).toMatchObject({ http_code: 409, code: 'not-revertable' });
    expect(row.body.message).toMatch(new RegExp(`revert ${loadId}`));
    const single = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Revert Land', iso_code: 'RL' } });
    const notLoad = await revert(single.body.transaction_id);
    expect(notLoad.body).toMatchObject({ http_code: 409, code: 'not-revertable' });
    const elsewhere = await revert(loadId, basicAuth('london-admin', 'a-long-password-1'));
    expect(elsewhere.body).toMatchObject({ http_code: 403, code: 'permission-denied' });
    expect(elsewhere.body.message).not.toMatch(/Paris/);
    const operator = await revert(loadId, basicAuth('paris-op', 'a-long-password-1'));
    expect(operator.body).toMatchObject({ http_code: 403, code: 'permission-denied' });
    const link = await t.get(`/workstation/transactions/${loadId}/revert/`, basicAuth('london-admin', 'a-long-password-1'));
    expect(link.status).toBe(403);
    expect((await t.call('DELETE', `/workstation/transactions/${loadId}/revert/`)).status).toBe(405);
  });

  it('refuses a load that changed nothing, and keeps no workbook of it', async () => {
    const header = ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name'];
    const bytes = await compactWorkbook('LineRelation', header, [[PARIS, 'modify', '+33149999999', 'Paris-PT', 'Nobody']]);
    expect((await upload(t, 'failing.xlsx', bytes, PARIS)).status).toBe(200);
    const failed = await t.call('POST', `/api/tool/BulkLoad/${q(PARIS, '&method=bulkload_spreadsheet')}`, {
      bulkload_file: 'failing.xlsx',
      execute_immediately: true,
    });
    expect(failed.body.transaction_id, failed.text).toBeTruthy();
    const workbooks = (await t.get('/workstation/workbooks/')).body.workbooks.length;
    const refused = await revert(failed.body.transaction_id);
    expect(refused.body).toMatchObject({ http_code: 409, code: 'nothing-to-revert' });
    expect(refused.body.message).toMatch(/none of its rows succeeded/);
    expect((await t.get('/workstation/workbooks/')).body.workbooks.length).toBe(workbooks);
    expect((await t.get(`/workstation/transactions/${failed.body.transaction_id}/revert/`)).body.reverted_by).toEqual([]);
  });

  it('needs the CSRF token with a session, as every session write does', async () => {
    const login = await t.call(
      'POST',
      '/noninteractivelogin/',
      { username: 'admin', password: 'test-admin-password' },
      { authorization: '' },
    );
    expect(login.status, login.text).toBe(200);
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] as string[])
      .map((c) => c.split(';')[0])
      .join('; ');
    const bare = await t.service.handle({ method: 'POST', url: `/workstation/transactions/${loadId}/revert/`, headers: { cookie } });
    expect(bare.status).toBe(403);
    expect(JSON.parse(String(bare.body))).toMatchObject({ code: 'csrf-failed' });
  });

  it('refuses, when it runs, a row whose target changed after the plan: the others revert', async () => {
    const { info } = await revertPlan(t, loadId);
    expect(info.plan?.totals).toMatchObject({ delete: 1, modify: 1, conflict: 0 });
    const line = await t.get(
      `/api/relation/LineRelation/${q(PARIS, '&summary=false&filter_field=pattern&filter_condition=equals&filter_text=%2B33140001000')}`,
    );
    const pkid = line.body.resources[0].meta.pkid as string;
    expect((await t.call('PUT', `/api/relation/LineRelation/${pkid}/${q(PARIS)}`, { data: { alertingName: 'Late' } })).status).toBe(200);
    const started = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: info.revision });
    expect(started.status, started.text).toBe(202);
    await t.service.idle();
    await t.service.workbooks.settled(info.id);
    const after = (await t.get(`/workstation/workbooks/${info.id}/`)).body.workbook;
    expect(after.load).toMatchObject({ loaded: 1, conflicts: 1 });
    expect((await t.get(`/api/relation/LineRelation/${pkid}/`)).body.data.alertingName).toBe('Late');
  });
});
