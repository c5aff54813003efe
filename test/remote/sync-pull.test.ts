import * as ExcelJS from 'exceljs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../main/remote/mirror-workspace';
import type { RemoteProfile, SyncPullAnswer, SyncStatus } from '../../main/service/contract/workstation-api';
import { openLocal, PARIS, REMOTE_PASSWORD, settled, startRemote, type Client, type LocalWorkstation } from './remote-world';
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
    await direct.get('/api/tool/Transaction/?hierarchy=sys&limit=1');

    const second = await pull();
    expect(second.mode).toBe('changes');
    expect(second.changed).toBeGreaterThanOrEqual(3);
    expect(second.changed).toBeLessThan(20);
    expect(second.counts['relation/LineRelation']).toBe(await total('relation/LineRelation'));
    expect(mirrorLine('+33170000123')?.data.alertingName).toBe('Renamed remotely');
    expect(mirrorLine('+33170000124')).toBeUndefined();
    expect(mirrorLine('+33179999999')?.data.alertingName).toBe('Added remotely');

    const after = (await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus;
    expect(after.pulled_at).toBe(second.pulled_at);
    expect(after.mode).toBe('changes');
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
