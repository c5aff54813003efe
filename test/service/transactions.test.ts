import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { openDatabase } from '../../main/service/store/db';
import { ACME, openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

describe('transaction list', () => {
  it('lists transactions at a hierarchy with filters, newest first on request', async () => {
    const all = await t.get(`/api/tool/Transaction/${q('sys', '&limit=1')}`);
    expect(all.body.pagination.total).toBeGreaterThan(250);
    expect(all.body.resources[0].data).toMatchObject({ action: 'Create', status: 'Success' });
    const paris = await t.get(`/api/tool/Transaction/${q(PARIS, '&limit=2000')}`);
    expect(paris.body.resources.every((r: { meta: { hierarchy: string } }) => r.meta.hierarchy === PARIS)).toBe(true);
    const phones = await t.get(
      `/api/tool/Transaction/${q(ACME, '&filter_field=model_type&filter_condition=equals&filter_text=device/cucm/Phone')}`,
    );
    expect(phones.body.pagination.total).toBe(20);
    const failed = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'France', iso_code: 'FR' } });
    const fails = await t.get(`/api/tool/Transaction/${q('sys', '&filter_field=status&filter_condition=equals&filter_text=Fail')}`);
    expect(fails.body.resources.map((r: { data: { transaction_id: string } }) => r.data.transaction_id)).toEqual([
      failed.body.transaction_id,
    ]);
    const newest = await t.get(`/api/tool/Transaction/${q('sys', '&order_by=submitted_time&direction=desc&limit=1')}`);
    expect(newest.body.resources[0].data.transaction_id).toBe(failed.body.transaction_id);
  });

  it('finds one transaction by its id, as a parameter or as a filter', async () => {
    const created = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Malta', iso_code: 'MT' } });
    const id = created.body.transaction_id;
    const byParam = await t.get(`/api/tool/Transaction/${q('sys', `&transaction_id=${id}`)}`);
    const byFilter = await t.get(
      `/api/tool/Transaction/${q('sys', `&filter_field=transaction_id&filter_condition=equals&filter_text=${id}`)}`,
    );
    expect(byParam.body.resources.map((r: { meta: { pkid: string } }) => r.meta.pkid)).toEqual([id]);
    expect(byFilter.body.resources).toEqual(byParam.body.resources);
  });

  it('shows the spec fields of a transaction', async () => {
    const created = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Cyprus', iso_code: 'CY' } });
    const tx = await t.get(`/api/tool/Transaction/${created.body.transaction_id}/${q('sys')}`);
    expect(tx.body.data).toMatchObject({
      username: 'admin',
      status: 'Success',
      rolled_back: 'No',
      action: 'Create',
      transaction_id: created.body.transaction_id,
      top_level: true,
      parent_id: null,
      resource: {
        hierarchy: 'sys',
        model_type: 'data/Countries',
        pkid: created.body.pkid,
        current_state: `/api/data/Countries/${created.body.pkid}/ Created`,
      },
    });
    for (const field of ['submitted_time', 'started_time', 'completed_time']) {
      expect(tx.body.data[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/);
    }
  });

  it('answers 404 for an unknown transaction and 400 for a bad log_id', async () => {
    expect((await t.get('/api/tool/Transaction/00000000-0000-4000-8000-000000000000/')).status).toBe(404);
    const any = await t.get(`/api/tool/Transaction/${q('sys', '&limit=1')}`);
    const id = any.body.resources[0].meta.pkid;
    expect((await t.get(`/api/tool/Transaction/${id}/log/?log_id=abc`)).status).toBe(400);
    expect((await t.get(`/api/tool/Transaction/${id}/log/?log_id=999999999`)).status).toBe(404);
    expect((await t.call('POST', `/api/tool/Transaction/${q('sys')}`, {})).status).toBe(405);
  });

  it('runs queued transactions in order: Queued, In Progress, then Success', async () => {
    const seen: string[] = [];
    const listener = (event: { status: string }) => seen.push(event.status);
    t.service.events.on('transaction', listener);
    await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Iceland', iso_code: 'IS' } });
    t.service.events.off('transaction', listener);
    expect(seen).toEqual(['Queued', 'In Progress', 'Success']);
  });
});

describe('recovery at start', () => {
  it('fails and rolls back what a killed process left Queued or In Progress', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workstation-recover-'));
    try {
      const first = await openTestService({ dataDir });
      first.close();
      // What a SIGKILL leaves behind: rows marked as started, whose data never committed.
      const db = openDatabase(workspaceFile(dataDir));
      const insert = db.prepare(
        `INSERT INTO transactions (transaction_id, status, action, detail, username, model_type, hierarchy_path, resource_pkid, submitted_time)
         VALUES (?, ?, 'Create', 'x', 'admin', 'data/Countries', 'sys', 'aaaaaaaaaaaaaaaaaaaaaaaa', '2026-01-01T00:00:00.000000')`,
      );
      insert.run('11111111-1111-4111-8111-111111111111', 'In Progress');
      insert.run('22222222-2222-4222-8222-222222222222', 'Queued');
      db.close();
      const second = await openTestService({ dataDir });
      expect(second.service.recoveredTransactions).toBe(2);
      for (const id of ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222']) {
        const tx = await second.get(`/api/tool/Transaction/${id}/`);
        expect(tx.body.data).toMatchObject({ status: 'Fail', rolled_back: 'Yes' });
        expect(tx.body.data.log[0].message).toMatch(/^Transaction canceled: the service stopped/);
      }
      second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
