import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import type { RemoteProfile, SyncPushAnswer } from '../../main/service/contract/workstation-api';
import type { ServeProcess } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { FaultProxy } from './fault-proxy';
import {
  lastPushIn,
  openLocal,
  PARIS,
  pushReached,
  type PushPoint,
  REMOTE_PASSWORD,
  remoteTransactionCount,
  startRemote,
  type Client,
  type LocalWorkstation,
  settledWorkbook,
} from './remote-world';

/**
 * `sync push` against a second real service on 127.0.0.1, through a fault proxy of our own: a
 * 5,000-line workbook staged and planned for the profile, 10 of its numbers then taken on the
 * remote; the push finds exactly those 10 rows changed, keeps them back as conflicts and loads the
 * rest with one bulk load; each row's outcome is the remote's sub-transaction. Then a workbook's
 * push cut off from the remote at each point (its file uploaded, its load submitted, halfway
 * through the remote's load, the outcomes being read) is run again: it finds its own load on the
 * remote instead of submitting another, and every row exists there exactly once.
 */
let remote: ServeProcess;
let direct: Client;
let local: LocalWorkstation;
let proxy: FaultProxy;
let profile: RemoteProfile;

const TAKEN = [7, 512, 1024, 1500, 2048, 2500, 3001, 3333, 4096, 4999];

async function book(prefix: string, numbers: string, lines: number): Promise<Buffer> {
  const phones: string[][] = [['Hierarchy Node', 'name', 'product', 'protocol']];
  for (let i = 0; i < lines / 20; i += 1) phones.push([PARIS, `SEP${prefix}${String(i).padStart(10, '0')}`, 'Cisco 8845', 'SIP']);
  const rows: string[][] = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
  for (let i = 0; i < lines; i += 1)
    rows.push([
      PARIS,
      `SEP${prefix}${String(Math.floor(i / 20)).padStart(10, '0')}`,
      `${numbers}${String(i).padStart(7, '0')}`,
      `Pushed ${i}`,
      'Paris-PT',
    ]);
  return workbookOf([
    { name: 'Phone', rows: phones },
    { name: 'LineRelation', rows },
  ]);
}

async function stagePlanned(name: string, bytes: Buffer): Promise<WorkbookInfo> {
  const form = new FormData();
  form.append('uploadedfile', new Blob([bytes]), name);
  expect((await local.admin.call('POST', '/api/uploadfiles/?hierarchy=sys', { form })).status).toBe(200);
  const made = await local.admin.call('POST', '/workstation/workbooks/', {
    json: { from: 'upload', file: name, profile: profile.name, hierarchy: PARIS },
  });
  expect(made.status, made.text).toBe(202);
  const info = await settledWorkbook(local.admin, made.body.workbook.id as string);
  expect(info.counts.errors).toBe(0);
  const planned = await local.admin.call('POST', `/workstation/workbooks/${info.id}/plan/`, { json: { revision: info.revision } });
  expect(planned.status, planned.text).toBe(202);
  return settledWorkbook(local.admin, info.id);
}

async function remoteLines(): Promise<number> {
  return (await direct.get(`/api/relation/LineRelation/?hierarchy=sys&limit=1&format=json`)).body.pagination.total as number;
}

async function lineCount(pattern: string): Promise<number> {
  const found = await direct.get(
    `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}&format=json`,
  );
  return found.body.pagination.total as number;
}

const CUT_WORDS: Record<PushPoint, string> = {
  uploaded: 'once its file was uploaded',
  submitted: 'right after its load was submitted',
  halfway: "halfway through the remote's load",
  outcomes: "as the remote's load ended and its outcomes were read",
};

/** Waits for the point of a push (not the one before it, `earlier`) at which the network goes. */
async function cutAt(point: PushPoint, earlier: string | undefined, ended: () => boolean): Promise<void> {
  for (let i = 0; i < 12_000; i += 1) {
    if (ended()) {
      if (point === 'outcomes') return;
      throw new Error(`the push ended before ${point}`);
    }
    const found = lastPushIn(local.dataDir);
    if (await pushReached(point, found?.push_id === earlier ? undefined : found, direct)) return;
    await new Promise((done) => setTimeout(done, 5));
  }
  throw new Error(`the push never reached ${point}`);
}

beforeAll(async () => {
  ({ remote, direct } = await startRemote('20.1.1'));
  proxy = new FaultProxy(Number(new URL(remote.url).port));
  await proxy.start();
  local = await openLocal();
  profile = await local.addProfile({
    name: 'Customer',
    base_url: `http://127.0.0.1:${proxy.port}`,
    username: 'admin',
    password: REMOTE_PASSWORD,
  });
  const pulled = await local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`);
  expect(pulled.status, pulled.text).toBe(200);
}, 120_000);

afterAll(async () => {
  await local?.close();
  await proxy?.stop();
  await remote?.stop();
});

describe('sync push', () => {
  it('keeps back exactly the rows whose numbers the remote took since the plan, loads the rest once, and writes each outcome back', async () => {
    const info = await stagePlanned('push-a.xlsx', await book('EE', '+3316', 5_000));
    expect(info.plan?.totals).toMatchObject({ add: 5_250, conflict: 0, error: 0 });
    // Meanwhile, on the remote: 10 of the workbook's numbers are taken.
    for (const i of TAKEN) {
      const taken = await direct.call('POST', `/api/relation/LineRelation/?hierarchy=${PARIS}`, {
        json: {
          data: {
            pattern: `+3316${String(i).padStart(7, '0')}`,
            routePartitionName: 'Paris-PT',
            alertingName: 'Taken meanwhile',
            summary_device: 'SEP00AA00000000',
          },
        },
      });
      expect(taken.status, taken.text).toBeLessThan(300);
    }
    const linesBefore = await remoteLines();
    const transactionsBefore = await remoteTransactionCount(direct);

    const pushed = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: info.id } });
    expect(pushed.status, pushed.text).toBe(200);
    const answer = pushed.body as SyncPushAnswer;
    expect(answer).toMatchObject({ resumed: false, pushed: 5_240, loaded: 5_240, failed: 0, conflicts: 10, errors: 0 });
    expect(answer.changed_since_plan.map((change) => change.row).sort((a, b) => a - b)).toEqual(TAKEN.map((i) => i + 2));
    expect(answer.changed_since_plan.every((change) => change.was === 'add' && change.now === 'conflict')).toBe(true);
    expect(await remoteLines()).toBe(linesBefore + 4_990);
    // One bulk load on the remote: its parent, and no other top-level transaction.
    expect(await remoteTransactionCount(direct)).toBe(transactionsBefore + 1);
    for (const i of TAKEN) expect(await lineCount(`+3316${String(i).padStart(7, '0')}`)).toBe(1);

    // Each row's outcome is its remote sub-transaction: a sample read on the remote.
    const rows = (await local.admin.get(`/workstation/workbooks/${info.id}/sheets/1/rows/?limit=20`)).body as WorkbookRowPage;
    for (const row of rows.rows.slice(0, 5)) {
      const outcome = row.outcome;
      if (TAKEN.includes(row.index)) {
        expect(outcome).toBeNull();
        continue;
      }
      expect(outcome?.status).toBe('loaded');
      const tx = await direct.get(`/api/tool/Transaction/${outcome?.transaction_id ?? ''}/`);
      expect(tx.body.data.status).toBe('Success');
      expect(tx.body.data.resource.pkid).toBe(outcome?.pkid);
    }
    const again = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: info.id } });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ pushed: 0, loaded: 5_240 });
    expect(await remoteTransactionCount(direct)).toBe(transactionsBefore + 1);
  }, 240_000);

  /** When the network goes: (a) the push's file uploaded, (b) its load submitted, (c) the remote halfway through it, (d) its end reached, the outcomes being read. */
  const cuts: [PushPoint, string, string][] = [
    ['uploaded', 'FA', '+3315'],
    ['submitted', 'FB', '+3312'],
    ['halfway', 'FC', '+3318'],
    ['outcomes', 'FD', '+3319'],
  ];
  for (const [point, prefix, numbers] of cuts) {
    it(`resumed after the network went ${CUT_WORDS[point]}, finds its own load or submits it once, and loads nothing twice`, async () => {
      const info = await stagePlanned(`push-${prefix}.xlsx`, await book(prefix, numbers, 2_000));
      const transactionsBefore = await remoteTransactionCount(direct);
      const earlier = lastPushIn(local.dataDir)?.push_id;
      const pushing = local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: info.id } });
      let settled: { status: number; body: Record<string, unknown> } | undefined;
      void pushing.then((answer) => (settled = answer));
      await cutAt(point, earlier, () => settled !== undefined);
      await proxy.refuse();
      const cut = await pushing;
      // Cut before its end, the push fails on a remote fault; past it, it may have finished first.
      if (point !== 'outcomes') {
        expect(cut.status, cut.text).toBeGreaterThanOrEqual(500);
        expect(cut.body.code).toMatch(/^remote-/);
        // Until the push is finished, the workbook keeps the rows it carries.
        const cutInfo = (await local.admin.get(`/workstation/workbooks/${info.id}/`)).body.workbook as WorkbookInfo;
        const editing = await local.admin.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
          json: { revision: cutInfo.revision, edit: { op: 'insert_rows', sheet: 1, at: 0 } },
        });
        expect(editing.status, editing.text).toBe(409);
      }
      await proxy.start();

      const resumed = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: info.id } });
      expect(resumed.status, resumed.text).toBe(200);
      expect(resumed.body).toMatchObject({ pushed: 2_100, loaded: 2_100, failed: 0 });
      if (cut.status !== 200) expect(resumed.body.resumed).toBe(true);
      expect(lastPushIn(local.dataDir)?.state).toBe('done');
      // One load of this workbook on the remote, never a second; each of its lines there once.
      expect(await remoteTransactionCount(direct)).toBe(transactionsBefore + 1);
      for (const i of [0, 999, 1999]) expect(await lineCount(`${numbers}${String(i).padStart(7, '0')}`)).toBe(1);
      const outcomes = await local.admin.get(`/workstation/workbooks/${info.id}/sheets/1/rows/?limit=2000`);
      expect((outcomes.body as WorkbookRowPage).rows.every((row) => row.outcome?.status === 'loaded')).toBe(true);
    }, 240_000);
  }
});
