import * as ExcelJS from 'exceljs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../main/remote/mirror-workspace';
import { readdirSync } from 'node:fs';
import type { SyncEvent } from '../../main/service/contract/service-events';
import type { RemoteProfile, SyncPullAnswer, SyncStatus } from '../../main/service/contract/workstation-api';
import { workbookOf } from '../service/bulk-validate-helpers';
import {
  openLocal,
  PARIS,
  REMOTE_PASSWORD,
  settled,
  startRemote,
  type Client,
  type LocalWorkstation,
  settledWorkbook,
} from './remote-world';
import type { ServeProcess } from '../http/serve-process';

/**
 * `sync pull` against a second real service on 127.0.0.1 holding 20,000 more lines: the first
 * pull copies the hierarchy and every mirrored model's instances, with the remote's pkids, into
 * the profile's mirror file; the next one reads only what the remote's transactions since then
 * touched (a line changed, one deleted, one added), and the mirror then holds what the remote
 * holds.
 */
const LINES = 20_000;
const PHONES = 1_000;

let remote: ServeProcess;
let direct: Client;
let local: LocalWorkstation;
let profile: RemoteProfile;

const phoneName = (i: number): string => `SEPCC${String(i).padStart(10, '0')}`;

async function remoteBook(file: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const phones = writer.addWorksheet('Phone');
  phones.addRow(['Hierarchy Node', 'name', 'product', 'protocol']).commit();
  for (let i = 0; i < PHONES; i += 1) phones.addRow([PARIS, phoneName(i), 'Cisco 8845', 'SIP']).commit();
  const lines = writer.addWorksheet('LineRelation');
  lines.addRow(['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']).commit();
  for (let i = 0; i < LINES; i += 1)
    lines.addRow([PARIS, phoneName(Math.floor(i / 20)), `+3317${String(i).padStart(7, '0')}`, `Pulled ${i}`, 'Paris-PT']).commit();
  await writer.commit();
}

async function total(modelType: string): Promise<number> {
  const answer = await direct.get(`/api/${modelType}/?hierarchy=sys&limit=1&format=json`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.pagination.total as number;
}

async function pull(): Promise<SyncPullAnswer> {
  const answer = await local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`);
  expect(answer.status, `${answer.text}\n${local.logs.join('\n')}`).toBe(200);
  return answer.body as SyncPullAnswer;
}

function mirrorLine(pattern: string): { pkid: string; data: Record<string, unknown> } | undefined {
  const mirror = openMirror(local.dataDir, profile.id);
  try {
    const found = mirror?.store.instances.findByKey('relation/LineRelation', `${PARIS_PKID}:${JSON.stringify([pattern, 'Paris-PT'])}`);
    return found?.[0] && { pkid: found[0].pkid, data: found[0].data };
  } finally {
    mirror?.close();
  }
}

let PARIS_PKID = '';

beforeAll(async () => {
  ({ remote, direct } = await startRemote('20.1.1'));
  local = await openLocal();
  const file = join(local.dataDir, 'remote-lines.xlsx');
  await remoteBook(file);
  const form = new FormData();
  form.append('uploadedfile', new Blob([await import('node:fs').then((fs) => fs.readFileSync(file))]), 'remote-lines.xlsx');
  expect((await direct.call('POST', `/api/uploadfiles/?hierarchy=${PARIS}`, { form })).status).toBe(200);
  const load = await direct.call('POST', `/api/tool/BulkLoad/?hierarchy=${PARIS}&method=bulkload_spreadsheet&nowait=true`, {
    json: { bulkload_file: 'remote-lines.xlsx', execute_immediately: true },
  });
  expect(load.status, load.text).toBe(202);
  const done = await settled(direct, load.body.transaction_id as string);
  expect(done.body.data.status).toBe('Success');
  profile = await local.addProfile({ name: 'Customer', base_url: remote.url, username: 'admin', password: REMOTE_PASSWORD });
  const paris = await direct.get(
    `/api/data/HierarchyNode/?hierarchy=sys.hcs.Telco.Acme&filter_field=name&filter_condition=equals&filter_text=Paris&format=json`,
  );
  PARIS_PKID = paris.body.resources[0].meta.pkid as string;
}, 240_000);

afterAll(async () => {
  await local?.close();
  await remote?.stop();
});

describe('sync pull', () => {
  it('copies the remote whole the first time, then only what changed, and the mirror holds what the remote holds', async () => {
    const before = await local.admin.get(`/workstation/sync/${profile.name}/`);
    expect(before.status).toBe(200);
    expect((before.body as SyncStatus).pulled_at).toBeNull();

    const first = await pull();
    expect(first.mode).toBe('full');
    expect(first.counts['relation/LineRelation']).toBe(await total('relation/LineRelation'));
    expect(first.counts['relation/LineRelation']).toBeGreaterThanOrEqual(LINES);
    expect(first.counts['device/cucm/Phone']).toBe(await total('device/cucm/Phone'));
    expect(first.counts['data/InternalNumberInventory']).toBe(await total('data/InternalNumberInventory'));
    const remoteLine = (
      await direct.get(
        `/api/relation/LineRelation/?hierarchy=${PARIS}&filter_field=pattern&filter_condition=equals&filter_text=%2B33170000123&format=json`,
      )
    ).body.resources[0];
    expect(mirrorLine('+33170000123')).toEqual({
      pkid: remoteLine.meta.pkid,
      data: expect.objectContaining({ alertingName: 'Pulled 123' }),
    });

    // On the remote: one line renamed, one deleted, one added.
    const renamed = await direct.call('PUT', `/api/relation/LineRelation/${remoteLine.meta.pkid as string}/`, {
      json: { data: { alertingName: 'Renamed remotely' } },
    });
    expect(renamed.status, renamed.text).toBeLessThan(300);
    const gone = mirrorLine('+33170000124');
    expect(gone).toBeDefined();
    const deleted = await direct.call('DELETE', `/api/relation/LineRelation/${gone?.pkid ?? ''}/`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const added = await direct.call('POST', `/api/relation/LineRelation/?hierarchy=${PARIS}`, {
      json: {
        data: { pattern: '+33179999999', routePartitionName: 'Paris-PT', alertingName: 'Added remotely', summary_device: phoneName(999) },
      },
    });
    expect(added.status, added.text).toBeLessThan(300);
    // And a bulk load of 4 lines (a phone takes 24): its rows are transactions under it, which the pull must find too.
    const small = await workbookOf([
      {
        name: 'LineRelation',
        rows: [
          ['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition'],
          ...[0, 1, 2, 3].map((i) => [PARIS, phoneName(997), `+3317888000${i}`, `Loaded remotely ${i}`, 'Paris-PT']),
        ],
      },
    ]);
    const smallForm = new FormData();
    smallForm.append('uploadedfile', new Blob([small]), 'remote-small.xlsx');
    expect((await direct.call('POST', `/api/uploadfiles/?hierarchy=${PARIS}`, { form: smallForm })).status).toBe(200);
    const smallLoad = await direct.call('POST', `/api/tool/BulkLoad/?hierarchy=${PARIS}&method=bulkload_spreadsheet&nowait=true`, {
      json: { bulkload_file: 'remote-small.xlsx', execute_immediately: true },
    });
    expect((await settled(direct, smallLoad.body.transaction_id as string)).body.data.status).toBe('Success');

    const second = await pull();
    expect(second.mode).toBe('changes');
    expect(second.changed).toBeGreaterThanOrEqual(7);
    expect(second.changed).toBeLessThan(20);
    expect(second.counts['relation/LineRelation']).toBe(await total('relation/LineRelation'));
    expect(mirrorLine('+33170000123')?.data.alertingName).toBe('Renamed remotely');
    expect(mirrorLine('+33170000124')).toBeUndefined();
    expect(mirrorLine('+33179999999')?.data.alertingName).toBe('Added remotely');
    expect(mirrorLine('+33178880003')?.data.alertingName).toBe('Loaded remotely 3');

    const after = (await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus;
    expect(after.pulled_at).toBe(second.pulled_at);
    expect(after.mode).toBe('changes');
  }, 240_000);

  it('tells its progress as it goes, and a canceled pull leaves no mirror behind', async () => {
    const second = await local.addProfile({ name: 'Second', base_url: remote.url, username: 'admin', password: REMOTE_PASSWORD });
    const seen: SyncEvent[] = [];
    let canceled: Promise<unknown> | undefined;
    const onSync = (event: SyncEvent): void => {
      seen.push(event);
      // Once it reads the lines, it is stopped.
      if (event.profile === second.name && event.text.startsWith('relation/LineRelation') && !canceled)
        canceled = local.admin.call('POST', `/workstation/sync/${second.name}/pull/cancel/`);
    };
    local.service.events.on('sync', onSync);
    try {
      const answer = await local.admin.call('POST', `/workstation/sync/${second.name}/pull/`);
      expect(answer.status, answer.text).toBe(409);
      expect(answer.body.code).toBe('canceled');
      expect(((await canceled) as { body: { canceled: boolean } }).body.canceled).toBe(true);
    } finally {
      local.service.events.off('sync', onSync);
    }
    expect(seen.some((event) => event.text.startsWith('data/HierarchyNode') || event.text.startsWith('nodes'))).toBe(true);
    expect(seen[seen.length - 1]).toMatchObject({ profile: 'Second', action: 'pull', text: 'canceled', ended: true });
    expect(((await local.admin.get('/workstation/sync/Second/')).body as SyncStatus).pulled_at).toBeNull();
    expect(readdirSync(join(local.dataDir, 'workspaces')).filter((file) => file.includes(second.id))).toEqual([]);
    // With nothing running, a cancel cancels nothing.
    expect((await local.admin.call('POST', '/workstation/sync/Second/pull/cancel/')).body.canceled).toBe(false);
  }, 120_000);

  it('stages, validates and plans a 5,000-row workbook for the profile with the remote unreachable, as the remote itself would', async () => {
    // 250 new phones and 5,000 lines on them; every 100th line takes a number the remote holds already, every 250th is no number.
    const phones: string[][] = [['Hierarchy Node', 'name', 'product', 'protocol']];
    for (let i = 0; i < 250; i += 1) phones.push([PARIS, `SEPDD${String(i).padStart(10, '0')}`, 'Cisco 8845', 'SIP']);
    const lines: string[][] = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
    for (let i = 0; i < 5_000; i += 1) {
      const number =
        i % 250 === 3 ? `not a number ${i}` : i % 100 === 7 ? `+3317${String(i).padStart(7, '0')}` : `+3318${String(i).padStart(7, '0')}`;
      lines.push([PARIS, `SEPDD${String(Math.floor(i / 20)).padStart(10, '0')}`, number, `Offline ${i}`, 'Paris-PT']);
    }
    const bytes = await workbookOf([
      { name: 'Phone', rows: phones },
      { name: 'LineRelation', rows: lines },
    ]);
    // What the remote itself says of this file, asked while it still answers.
    const form = new FormData();
    form.append('uploadedfile', new Blob([bytes]), 'offline.xlsx');
    expect((await direct.call('POST', `/api/uploadfiles/?hierarchy=${PARIS}`, { form })).status).toBe(200);
    const remoteSays = await direct.call('POST', `/api/tool/BulkLoad/?hierarchy=${PARIS}&method=validate`, {
      json: { bulkload_file: 'offline.xlsx' },
    });
    expect(remoteSays.status, remoteSays.text).toBe(200);
    const expected = (
      remoteSays.body.sheets as {
        name: string;
        issues: { row: number; column: string; severity: string; code: string; message: string }[];
      }[]
    )
      .flatMap((sheet) => sheet.issues.map((issue) => [sheet.name, issue.row, issue.column, issue.severity, issue.code, issue.message]))
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(70);
    await remote.stop();

    const localForm = new FormData();
    localForm.append('uploadedfile', new Blob([bytes]), 'offline.xlsx');
    expect((await local.admin.call('POST', '/api/uploadfiles/?hierarchy=sys', { form: localForm })).status).toBe(200);
    const made = await local.admin.call('POST', '/workstation/workbooks/', {
      json: { from: 'upload', file: 'offline.xlsx', profile: profile.name, hierarchy: PARIS },
    });
    expect(made.status, made.text).toBe(202);
    const id = made.body.workbook.id as string;
    let info = await settledWorkbook(local.admin, id);
    expect(info).toMatchObject({ state: 'draft', profile: profile.name, hierarchy: PARIS, counts: { rows: 5_250 } });
    const pulled = ((await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus).pulled_at;
    expect(info.checked_against).toBe(pulled);
    const names = new Map(info.sheets.map((sheet) => [sheet.index, sheet.name]));
    const offline = async (): Promise<unknown[]> =>
      (
        (await local.admin.get(`/workstation/workbooks/${id}/issues/?limit=100000`)).body.issues as {
          sheet: number;
          row: number;
          column: string;
          severity: string;
          code: string;
          message: string;
        }[]
      )
        .map((issue) => [names.get(issue.sheet), issue.row, issue.column, issue.severity, issue.code, issue.message])
        .sort();
    expect(await offline()).toEqual(expected);

    const planned = await local.admin.call('POST', `/workstation/workbooks/${id}/plan/`, { json: { revision: info.revision } });
    expect(planned.status, planned.text).toBe(202);
    info = await settledWorkbook(local.admin, id);
    expect(info.state).toBe('planned');
    const totals = info.plan?.totals;
    expect(totals?.conflict).toBe(50);
    expect((totals?.add ?? 0) + (totals?.conflict ?? 0) + (totals?.error ?? 0)).toBe(5_250);
    expect(await offline()).toEqual(expected);
    // Loading it here is refused: it goes to the remote by sync push.
    const load = await local.admin.call('POST', `/workstation/workbooks/${id}/load/`, {
      json: { revision: info.revision, allow_errors: true },
    });
    expect(load.status).toBe(409);
    expect(load.body.code).toBe('workbook-remote');
  }, 240_000);

  it('refuses a profile the caller may not use, and a pull of a remote that does not answer leaves the mirror as it was', async () => {
    expect((await local.admin.call('POST', '/workstation/sync/NoSuchProfile/pull/')).status).toBe(404);
    const before = (await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus;
    await remote.stop();
    const answer = await local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`);
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(answer.body.code).toMatch(/^remote-/);
    const after = (await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus;
    expect(after).toEqual(before);
  }, 60_000);
});
