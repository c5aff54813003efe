import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type Fault, type SyncSuccess, type TransactionRef } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';
import { getTransaction, pollUntilDone, type LogEntry } from './transactions-api';

/**
 * Writes over HTTP on the demo world: sync and nowait creates, the transaction and its step
 * log, deletes with their skipped step, and the answers to bad bodies and Range paging.
 */
const PARIS = 'sys.hcs.Telco.Acme.Paris';
const LINES = `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}`;
/** Demo inventory numbers 20..84 of Paris are Available; 90..99 are Reserved. */
const AVAILABLE_NUMBER = '+33140001050';
const OUTSIDE_INVENTORY = '+33199990001';
const PKID = /^[0-9a-f]{24}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_MICROS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/;

let server: ServeProcess;
let api: ApiClient;

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir(), seed: 'demo' });
  api = new ApiClient(server.url);
});
afterAll(cleanupServers);

async function inventoryStatus(pattern: string): Promise<string | undefined> {
  const query = `&filter_field=internal_number&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`;
  const found = await api.listAll<{ status: string }>('data/InternalNumberInventory', 'sys.hcs.Telco.Acme', query);
  return found[0]?.data.status;
}

/** Counts that any stored change would move. */
async function storeCounts(): Promise<number[]> {
  return [await api.total('relation/LineRelation', 'sys'), await api.total('tool/Transaction', 'sys')];
}

function checkLogEntry(entry: LogEntry, transactionId: string): void {
  expect(['error', 'warning', 'info', 'verbose', 'debug']).toContain(entry.severity);
  expect(entry.format).toBe('text');
  expect(entry.log_id).toMatch(/^\d+$/);
  expect(entry.href).toBe(`/api/tool/Transaction/${transactionId}/log/?log_id=${entry.log_id}`);
  expect(entry.time).toMatch(ISO_MICROS);
  expect(typeof entry.message).toBe('string');
  expect(entry.transaction_id).toBe(transactionId);
}

describe('creating over HTTP', () => {
  let syncCreated: SyncSuccess;
  let asyncPkid: string;

  it('answers a sync create with 200 and the outcome, and marks the number Used', async () => {
    const answer = await api.post<SyncSuccess>(LINES, { data: { pattern: AVAILABLE_NUMBER, alertingName: 'HTTP Sync' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = answer.body;
    expect(body).toMatchObject({ success: true, model_type: 'relation/LineRelation' });
    expect(body.pkid).toMatch(PKID);
    expect(body.transaction_id).toMatch(UUID_V4);
    expect(body.href).toBe(`/api/relation/LineRelation/${body.pkid}/`);
    expect(body.meta.uri).toBe(`/api/tool/Transaction/${body.transaction_id}/`);
    expect(body.meta.summary_attrs).toMatchObject({ pattern: AVAILABLE_NUMBER, alertingName: 'HTTP Sync' });
    const paris = (await api.listAll<{ name: string }>('data/HierarchyNode', 'sys.hcs.Telco.Acme')).find((n) => n.data.name === 'Paris');
    expect(body.meta.parent_id).toBe(paris?.meta.pkid);

    const read = await api.get<{ data: { pattern: string }; meta: { hierarchy: string } }>(body.href);
    expect(read.status).toBe(200);
    expect(read.body.data.pattern).toBe(AVAILABLE_NUMBER);
    expect(read.body.meta.hierarchy).toBe(PARIS);
    expect(await inventoryStatus(AVAILABLE_NUMBER)).toBe('Used');
    syncCreated = body;
  });

  it('answers nowait=true with 202 and a transaction that ends Success with its step log', async () => {
    const answer = await api.post<TransactionRef>(`${LINES}&nowait=true`, { data: { pattern: OUTSIDE_INVENTORY } });
    expect(answer.status).toBe(202);
    const id = answer.body.transaction_id;
    expect(answer.body).toEqual({ href: `/api/tool/Transaction/${id}/`, success: true, transaction_id: id });
    expect(id).toMatch(UUID_V4);
    expect(await pollUntilDone(api, id)).toBe('Success');

    const tx = await getTransaction(api, id);
    expect(tx).toMatchObject({ status: 'Success', rolled_back: 'No', action: 'Create' });
    expect(tx.resource).toMatchObject({ hierarchy: PARIS, model_type: 'relation/LineRelation' });
    expect(tx.resource.pkid).toMatch(PKID);
    expect((await api.get(`/api/relation/LineRelation/${tx.resource.pkid}/`)).status).toBe(200);
    asyncPkid = tx.resource.pkid;

    const messages = tx.log.map((entry) => entry.message);
    const start = messages.findIndex((message) => message.startsWith('Step 1 - Start '));
    const end = messages.indexOf('Step 1 - End');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThanOrEqual(0);
    // Newest first: the end of step 1 comes before its start, ids and times go down.
    expect(end).toBeLessThan(start);
    const ids = tx.log.map((entry) => Number(entry.log_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    const times = tx.log.map((entry) => entry.time);
    expect(times).toEqual([...times].sort().reverse());
    for (const entry of tx.log) checkLogEntry(entry, id);
  });

  it('serves one log entry at its href', async () => {
    const created = await api.post<SyncSuccess>(LINES, { data: { pattern: '+33199990002' } });
    const tx = await getTransaction(api, created.body.transaction_id);
    const entry = tx.log[tx.log.length - 1];
    const answer = await api.get<{ data: LogEntry }>(entry.href);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual(entry);
  });

  it('deletes: step 1 removes the device line, step 2 frees an inventory number', async () => {
    const answer = await api.delete<SyncSuccess>(syncCreated.href);
    expect(answer.status).toBe(200);
    expect((await api.get<Fault>(syncCreated.href)).status).toBe(404);
    expect(await inventoryStatus(AVAILABLE_NUMBER)).toBe('Available');
    const messages = (await getTransaction(api, answer.body.transaction_id)).log.map((entry) => entry.message);
    expect(messages).toContain('Step 2 - End');
  });

  it('deletes: step 2 is skipped for a number outside the inventory', async () => {
    const answer = await api.delete<SyncSuccess>(`/api/relation/LineRelation/${asyncPkid}/`);
    expect(answer.status).toBe(200);
    const tx = await getTransaction(api, answer.body.transaction_id);
    expect(tx.log.some((entry) => entry.message.startsWith('Step 2 - Condition unmet, skipping step.'))).toBe(true);
    const lines = await api.listAll<{ pattern: string }>('device/cucm/Line', PARIS);
    expect(lines.map((line) => line.data.pattern)).not.toContain(OUTSIDE_INVENTORY);
  });

  it('refuses a duplicate with 409, and its transaction is Fail and rolled back', async () => {
    const body = { data: { pattern: '+33199990003', routePartitionName: 'Paris-PT' } };
    expect((await api.post(LINES, body)).status).toBe(200);
    const before = await storeCounts();
    const answer = await api.post<Fault>(LINES, body);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ success: false, http_code: 409, code: 'conflict' });
    const tx = await getTransaction(api, answer.body.transaction_id ?? '');
    expect(tx).toMatchObject({ status: 'Fail', rolled_back: 'Yes' });
    expect(tx.log.some((entry) => entry.severity === 'error')).toBe(true);
    const [lines] = before;
    expect(await api.total('relation/LineRelation', 'sys')).toBe(lines);
  });
});

describe('bad requests over HTTP', () => {
  it('refuses a body over 10 MB with 413 too-large and stores nothing', async () => {
    const before = await storeCounts();
    const raw = JSON.stringify({ data: { pattern: '+33199990010', description: 'x'.repeat(10 * 1024 * 1024 + 1) } });
    const answer = await api.call<Fault>('POST', LINES, { raw });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ success: false, http_code: 413, code: 'too-large' });
    expect(await storeCounts()).toEqual(before);
  });

  it('refuses malformed JSON with 400 and stores nothing', async () => {
    const before = await storeCounts();
    const answer = await api.call<Fault>('POST', LINES, { raw: '{"data": {"pattern": "+33199990011",' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, http_code: 400 });
    expect(answer.body.message.length).toBeGreaterThan(0);
    expect(await storeCounts()).toEqual(before);
  });
});

describe('Range paging over HTTP', () => {
  it('answers Range: items=0-9 with 10 resources and Content-Range', async () => {
    const total = await api.total('relation/LineRelation', 'sys');
    expect(total).toBeGreaterThan(10);
    const answer = await api.get<{ resources: unknown[]; pagination: { total: number } }>('/api/relation/LineRelation/?hierarchy=sys', {
      headers: { range: 'items=0-9' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.resources).toHaveLength(10);
    expect(answer.headers.get('content-range')).toBe(`items 0-9/${total}`);
  });

  it('answers a second page with its own Content-Range', async () => {
    const total = await api.total('relation/LineRelation', 'sys');
    const answer = await api.get<{ resources: unknown[] }>('/api/relation/LineRelation/?hierarchy=sys', {
      headers: { range: 'items=10-14' },
    });
    expect(answer.body.resources).toHaveLength(5);
    expect(answer.headers.get('content-range')).toBe(`items 10-14/${total}`);
  });
});
