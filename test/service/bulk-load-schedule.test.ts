import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactWorkbook, line, LINE_HEADER, upload } from './bulk-validate-helpers';
import { ACME, openTestService, PARIS, q, type TestService } from './helpers';

/** A moment `seconds` from now, written as a field engineer in UTC+1 would type it. */
function inUtcPlusOne(seconds: number): { execute_date: string; execute_time: string; execute_timezone: number } {
  const local = new Date(Date.now() + seconds * 1000 + 60 * 60 * 1000).toISOString();
  return { execute_date: local.slice(0, 10), execute_time: local.slice(11, 19), execute_timezone: 60 };
}

async function schedule(t: TestService, file: string, when: object) {
  return t.call('POST', `/api/tool/BulkLoad/${q(ACME, '&method=bulkload_spreadsheet')}`, {
    bulkload_file: file,
    execute_immediately: false,
    ...when,
  });
}

async function prepared(t: TestService, file: string, pattern: string): Promise<void> {
  const bytes = await compactWorkbook('LineRelation', LINE_HEADER, [line({ pattern, name: 'Scheduled' })]);
  expect((await upload(t, file, bytes, PARIS)).status).toBe(200);
}

const parentOf = async (t: TestService, id: string) => (await t.get(`/api/tool/Transaction/${id}/`)).body.data;
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** Waits (up to 15 s, for slow machines) until the scheduled load has left Queued and Processing. */
async function settled(t: TestService, id: string) {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const parent = await parentOf(t, id);
    if (parent.status !== 'Queued' && parent.status !== 'Processing') return parent;
    await sleep(100);
  }
  throw new Error(`the scheduled load ${id} did not run within 15 s`);
}

describe('scheduled bulk loads', () => {
  it('queue the load for its moment, then run it', async () => {
    const t = await openTestService({ demo: true });
    try {
      await prepared(t, 'soon.xlsx', '+33140001072');
      const reply = await schedule(t, 'soon.xlsx', inUtcPlusOne(1));
      expect(reply.status).toBe(202);
      expect(new Date(reply.body.execute_at).getTime() - Date.now()).toBeLessThan(1500);
      expect((await parentOf(t, reply.body.transaction_id)).status).toBe('Queued');
      const parent = await settled(t, reply.body.transaction_id);
      expect(parent).toMatchObject({ status: 'Success', detail: '[ 1/1 ] succeeded from [ 1 ] sheet in soon.xlsx' });
      expect(new Date(`${parent.started_time}Z`).getTime()).toBeGreaterThanOrEqual(new Date(reply.body.execute_at).getTime());
    } finally {
      t.close();
    }
  });

  it('refuse a schedule without date, time or zone, naming each', async () => {
    const t = await openTestService({ demo: true });
    try {
      await prepared(t, 'when.xlsx', '+33140001073');
      const before = t.snapshot({ withTransactions: true });
      const reply = await schedule(t, 'when.xlsx', { execute_date: '21/11/2026' });
      expect(reply.status).toBe(400);
      expect(reply.body.details.map((detail: { field: string }) => detail.field)).toEqual([
        'execute_date',
        'execute_time',
        'execute_timezone',
      ]);
      expect(t.snapshot({ withTransactions: true })).toBe(before);
    } finally {
      t.close();
    }
  });

  it('survive a restart: the waiting load is not failed by recovery and runs after', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'workstation-schedule-'));
    try {
      const first = await openTestService({ demo: true, dataDir });
      await prepared(first, 'later.xlsx', '+33140001074');
      // Far enough ahead that a busy machine's restart (a second or two) still finds it waiting.
      const reply = await schedule(first, 'later.xlsx', inUtcPlusOne(5));
      first.close();
      const second = await openTestService({ dataDir });
      expect((await parentOf(second, reply.body.transaction_id)).status).toBe('Queued');
      expect((await settled(second, reply.body.transaction_id)).status).toBe('Success');
      second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
