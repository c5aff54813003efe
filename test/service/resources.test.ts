import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { openDatabase } from '../../main/service/store/db';
import { ACME, openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

describe('resource writes', () => {
  it('creates, reads, modifies and deletes an instance, each as a transaction', async () => {
    const created = await t.call('POST', `/api/data/Countries/${q('sys')}`, {
      data: { country_name: 'Italy', iso_code: 'IT', international_prefix: '00', country_code: '39' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      success: true,
      model_type: 'data/Countries',
      href: `/api/data/Countries/${created.body.pkid}/`,
      meta: { uri: `/api/tool/Transaction/${created.body.transaction_id}/`, summary_attrs: { country_name: 'Italy', iso_code: 'IT' } },
    });
    expect(created.body.pkid).toMatch(/^[0-9a-f]{24}$/);
    const read = await t.get(`/api/data/Countries/${created.body.pkid}/`);
    expect(read.body.data).toEqual({ country_name: 'Italy', iso_code: 'IT', international_prefix: '00', country_code: '39' });
    expect(read.body.meta).toMatchObject({ model_type: 'data/Countries', hierarchy: 'sys', tags: [], schema_version: '0.2.2' });

    const modified = await t.call('PUT', `/api/data/Countries/${created.body.pkid}/`, { data: { international_prefix: '000' } });
    expect(modified.status).toBe(200);
    expect((await t.get(`/api/data/Countries/${created.body.pkid}/`)).body.data).toMatchObject({
      country_name: 'Italy',
      international_prefix: '000',
    });

    const deleted = await t.call('DELETE', `/api/data/Countries/${created.body.pkid}/`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.meta.summary_attrs).toMatchObject({ country_name: 'Italy' });
    expect(deleted.body.meta.parent_id).toBe(read.body.meta.references.parent[0].pkid);
    expect((await t.get(`/api/data/Countries/${created.body.pkid}/`)).status).toBe(404);
    for (const reply of [created, modified, deleted]) {
      const tx = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/`);
      expect(tx.body.data.status).toBe('Success');
    }
  });

  it('refuses a second instance with the same business key with 409', async () => {
    const before = t.snapshot();
    const clash = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'France again', iso_code: 'FR' } });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ success: false, http_code: 409, code: 'conflict' });
    expect(clash.body.message).toMatch(/ISO Code 'FR' already exists at sys/);
    expect(t.snapshot()).toBe(before);
    const tx = await t.get(`/api/tool/Transaction/${clash.body.transaction_id}/`);
    expect(tx.body.data).toMatchObject({ status: 'Fail', rolled_back: 'Yes' });
    // The same key at another node is another instance.
    expect((await t.call('POST', `/api/data/Countries/${q(ACME)}`, { data: { country_name: 'France', iso_code: 'FR' } })).status).toBe(200);
  });

  it('answers nowait=true with 202 and the transaction reference at once', async () => {
    const reply = await t.call('POST', `/api/data/Countries/${q('sys', '&nowait=true')}`, {
      data: { country_name: 'Portugal', iso_code: 'PT' },
    });
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body).sort()).toEqual(['href', 'success', 'transaction_id']);
    expect(reply.body.href).toBe(`/api/tool/Transaction/${reply.body.transaction_id}/`);
    expect(reply.body.transaction_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await t.service.idle();
    const poll = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/poll/`);
    expect(poll.body[reply.body.transaction_id]).toMatchObject({ status: 'Success', href: reply.body.href });
  });

  it('answers a GET sent with nowait=true with 202 and the same JSON', async () => {
    const plain = await t.get(`/api/data/Countries/${q('sys')}`);
    const nowait = await t.get(`/api/data/Countries/${q('sys', '&nowait=true')}`);
    expect(nowait.status).toBe(202);
    expect(nowait.body).toEqual(plain.body);
  });

  it('deletes several instances by href: one parent, a sub-transaction each, a failure not undoing the others', async () => {
    const a = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Aland', iso_code: 'AX' } });
    const b = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Belize', iso_code: 'BZ' } });
    const hrefs = [a.body.href, '/api/data/Countries/ffffffffffffffffffffffff/', b.body.href];
    const reply = await t.call('DELETE', `/api/data/Countries/${q('sys')}`, { hrefs });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe('1 of 3 failed');
    expect((await t.get(a.body.href)).status).toBe(404);
    expect((await t.get(b.body.href)).status).toBe(404);
    const parent = await t.get(`/api/tool/Transaction/${reply.body.transaction_id}/`);
    expect(parent.body.data.sub_transactions.map((s: { status: string }) => s.status)).toEqual(['Success', 'Fail', 'Success']);
    const failed = await t.get(parent.body.data.sub_transactions[1].href);
    expect(failed.body.data.message).toMatch(/ffffffffffffffffffffffff was not found/);
  });

  it('serves the add form with defaults', async () => {
    const form = await t.get(`/api/relation/LineRelation/add/${q(PARIS)}`);
    expect(form.body.data).toMatchObject({ usage: 'Device', aarKeepCallHistory: true, patternPrecedence: 'Default' });
    expect(form.body.meta.hierarchy).toBe(PARIS);
  });
});

describe('repeated reads', () => {
  it('never serve an answer older than the last change, by this service or another connection', async () => {
    const created = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Latvia', iso_code: 'LV' } });
    const first = await t.get(created.body.href);
    expect((await t.get(created.body.href)).text).toBe(first.text);
    await t.call('PUT', created.body.href, { data: { country_code: '371' } });
    expect((await t.get(created.body.href)).body.data.country_code).toBe('371');
    // Another connection to the same file (the CLI, a worker thread) commits a change.
    const other = openDatabase(workspaceFile(t.dataDir));
    other.prepare("UPDATE instances SET data = json_set(data, '$.country_code', '999') WHERE pkid = ?").run(created.body.pkid);
    other.close();
    // Another connection's commit is seen within the cache's 100 ms check interval.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await t.get(created.body.href)).body.data.country_code).toBe('999');
  });
});
