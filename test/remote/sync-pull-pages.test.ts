import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mirrorFile, openMirror } from '../../main/remote/mirror-workspace';
import { MIRRORED } from '../../main/remote/sync-pull';
import type { RemoteProfile, SyncPullAnswer, SyncPushAnswer, SyncStatus } from '../../main/service/contract/workstation-api';
import type { ServeProcess } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { PageSpoiler, SPOILS, type Spoil } from './page-spoiler';
import {
  ACME,
  openLocal,
  PARIS,
  REMOTE_PASSWORD,
  settled,
  settledWorkbook,
  startRemote,
  type Client,
  type LocalWorkstation,
  type Reply,
} from './remote-world';

/**
 * A pull whose remote answers a page that is not what it should be, through a proxy of our own in
 * front of a second real service (4,600 more lines: three pages of them): each broken shape
 * fails the whole pull with a `remote-` fault, and the mirror file is byte for byte the one
 * before. Then the mirror's count of each model is compared with the remote's own lists after a
 * push, a delete and a move on the remote; and a pull that would remove more than a tenth of a
 * model's instances is refused until it is allowed.
 */
const LINES = 4_600;
const PHONES = LINES / 20;

let remote: ServeProcess;
let direct: Client;
let local: LocalWorkstation;
let spoiler: PageSpoiler;
let profile: RemoteProfile;

const phoneName = (i: number): string => `SEPBB${String(i).padStart(10, '0')}`;

async function loadOnRemote(name: string, sheets: { name: string; rows: string[][] }[]): Promise<void> {
  const form = new FormData();
  form.append('uploadedfile', new Blob([await workbookOf(sheets)]), name);
  expect((await direct.call('POST', `/api/uploadfiles/?hierarchy=${PARIS}`, { form })).status).toBe(200);
  const load = await direct.call('POST', `/api/tool/BulkLoad/?hierarchy=${PARIS}&method=bulkload_spreadsheet&nowait=true`, {
    json: { bulkload_file: name, execute_immediately: true },
  });
  expect(load.status, load.text).toBe(202);
  expect((await settled(direct, load.body.transaction_id as string)).body.data.status).toBe('Success');
}

const pull = (body?: unknown): Promise<Reply> =>
  local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`, body === undefined ? {} : { json: body });

async function pulled(body?: unknown): Promise<SyncPullAnswer> {
  const answer = await pull(body);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as SyncPullAnswer;
}

/** The mirror as files: each file of the profile's in the workspaces folder, and the SHA-256 of the mirror's own. */
function mirrorBytes(): { files: string[]; sha256: string } {
  const files = readdirSync(join(local.dataDir, 'workspaces'))
    .filter((file) => file.includes(profile.id))
    .sort();
  return {
    files,
    sha256: createHash('sha256')
      .update(readFileSync(mirrorFile(local.dataDir, profile.id)))
      .digest('hex'),
  };
}

const status = async (): Promise<SyncStatus> => (await local.admin.get(`/workstation/sync/${profile.name}/`)).body as SyncStatus;

/** What the remote itself lists of a model from the profile user's node (admin: sys), and what the mirror file holds of it. */
async function remoteTotal(modelType: string): Promise<number> {
  const answer = await direct.get(`/api/${modelType}/?hierarchy=sys&limit=1&format=json`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.pagination.total as number;
}

function mirrorCounts(): Map<string, number> {
  const mirror = openMirror(local.dataDir, profile.id);
  try {
    return new Map(mirror?.store.instances.countByModel().map(({ modelType, count }) => [modelType, count]));
  } finally {
    mirror?.close();
  }
}

/** Every mirrored model: the pull's counts, the mirror file and the remote's list agree. */
async function expectCountsAsRemote(answer: SyncPullAnswer): Promise<void> {
  const held = mirrorCounts();
  for (const { modelType } of MIRRORED) {
    const listed = await remoteTotal(modelType);
    expect({ modelType, counted: answer.counts[modelType] }).toEqual({ modelType, counted: listed });
    expect({ modelType, held: held.get(modelType) ?? 0 }).toEqual({ modelType, held: listed });
  }
}

async function nodePkid(parent: string, name: string): Promise<string> {
  const found = await direct.get(
    `/api/data/HierarchyNode/?hierarchy=${parent}&filter_field=name&filter_condition=equals&filter_text=${name}&format=json`,
  );
  return found.body.resources[0].meta.pkid as string;
}

beforeAll(async () => {
  ({ remote, direct } = await startRemote('20.1.1'));
  spoiler = new PageSpoiler(Number(new URL(remote.url).port));
  await spoiler.start();
  const phones = [['Hierarchy Node', 'name', 'product', 'protocol']];
  for (let i = 0; i < PHONES; i += 1) phones.push([PARIS, phoneName(i), 'Cisco 8845', 'SIP']);
  const lines = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
  for (let i = 0; i < LINES; i += 1)
    lines.push([PARIS, phoneName(Math.floor(i / 20)), `+3319${String(i).padStart(7, '0')}`, `Paged ${i}`, 'Paris-PT']);
  await loadOnRemote('paged.xlsx', [
    { name: 'Phone', rows: phones },
    { name: 'LineRelation', rows: lines },
  ]);
  local = await openLocal();
  profile = await local.addProfile({
    name: 'Paged',
    base_url: `http://127.0.0.1:${spoiler.port}`,
    username: 'admin',
    password: REMOTE_PASSWORD,
  });
  const first = await pulled();
  expect(first.mode).toBe('full');
  await expectCountsAsRemote(first);
}, 240_000);

afterAll(async () => {
  await local?.close();
  await spoiler?.stop();
  await remote?.stop();
});

/** A pull through a spoiled answer: a `remote-` fault, and the mirror and its status exactly as before. */
async function expectRefusedWhole(how: Spoil, match: (url: URL) => boolean): Promise<void> {
  const before = { bytes: mirrorBytes(), status: await status() };
  spoiler.spoil({ how, match });
  try {
    const answer = await pull();
    expect(spoiler.spoiledCount, `${how}: no answer was spoiled`).toBeGreaterThan(0);
    expect({ how, status: answer.status, code: answer.body?.code }).toEqual({ how, status: 502, code: 'remote-bad-answer' });
    expect(answer.body.message).toContain('the mirror is as it was before it');
  } finally {
    spoiler.spoil(undefined);
  }
  expect({ how, bytes: mirrorBytes() }).toEqual({ how, bytes: before.bytes });
  expect(await status()).toEqual(before.status);
}

describe('a pull of pages that are not what they should be', () => {
  it('fails in a pull of changes, whichever answer is spoiled, and leaves the mirror byte for byte', async () => {
    const line = await direct.get(
      `/api/relation/LineRelation/?hierarchy=${PARIS}&filter_field=pattern&filter_condition=equals&filter_text=%2B33190000007&format=json`,
    );
    const pkid = line.body.resources[0].meta.pkid as string;
    const renamed = await direct.call('PUT', `/api/relation/LineRelation/${pkid}/`, { json: { data: { alertingName: 'Renamed' } } });
    expect(renamed.status, renamed.text).toBeLessThan(300);
    // The remote's transactions, the instance it changed, the count of a model.
    await expectRefusedWhole('html', (url) => url.pathname === '/api/tool/Transaction/');
    await expectRefusedWhole('truncated', (url) => url.pathname === `/api/relation/LineRelation/${pkid}/`);
    // A 404 that is a proxy's page, not the remote's fault, does not say the line is gone.
    await expectRefusedWhole('html', (url) => url.pathname === `/api/relation/LineRelation/${pkid}/`);
    await expectRefusedWhole('shape', (url) => url.pathname === '/api/device/cucm/Phone/' && url.searchParams.get('limit') === '1');
    const changes = await pulled();
    expect(changes.mode).toBe('changes');
    expect(changes.reread).toEqual([]);
  }, 120_000);

  it('fails in a whole pull for each broken shape of a page of lines, and leaves the mirror byte for byte', async () => {
    // A new node on the remote: the next pull reads everything again.
    const made = await direct.call('POST', `/api/data/HierarchyNode/?hierarchy=${ACME}`, {
      json: { data: { name: 'Spoiled', node_type: 'Site' } },
    });
    expect(made.status, made.text).toBeLessThan(300);
    const lines = (url: URL): boolean => url.pathname === '/api/relation/LineRelation/';
    for (const how of SPOILS) {
      // Every page says another total; any other spoil hits the second of the three pages.
      await expectRefusedWhole(how, how === 'total' ? lines : (url) => lines(url) && url.searchParams.get('skip') === '2000');
    }
    const whole = await pulled();
    expect(whole.mode).toBe('full');
    await expectCountsAsRemote(whole);
  }, 180_000);
});

describe("the mirror's counts", () => {
  it("are the remote's after a push, a delete and a move there", async () => {
    // A push: 5 phones and 60 line relations, whose device lines the remote's workflow makes.
    const phones = [['Hierarchy Node', 'name', 'product', 'protocol']];
    const lines = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
    for (let i = 0; i < 5; i += 1) phones.push([PARIS, `SEPCA${String(i).padStart(10, '0')}`, 'Cisco 8845', 'SIP']);
    for (let i = 0; i < 60; i += 1)
      lines.push([PARIS, `SEPCA${String(i % 5).padStart(10, '0')}`, `+3311${String(i).padStart(7, '0')}`, `Pushed ${i}`, 'Paris-PT']);
    const form = new FormData();
    form.append(
      'uploadedfile',
      new Blob([
        await workbookOf([
          { name: 'Phone', rows: phones },
          { name: 'LineRelation', rows: lines },
        ]),
      ]),
      'counted.xlsx',
    );
    expect((await local.admin.call('POST', '/api/uploadfiles/?hierarchy=sys', { form })).status).toBe(200);
    const made = await local.admin.call('POST', '/workstation/workbooks/', {
      json: { from: 'upload', file: 'counted.xlsx', profile: profile.name, hierarchy: PARIS },
    });
    expect(made.status, made.text).toBe(202);
    const info = await settledWorkbook(local.admin, made.body.workbook.id as string);
    const planned = await local.admin.call('POST', `/workstation/workbooks/${info.id}/plan/`, { json: { revision: info.revision } });
    expect(planned.status, planned.text).toBe(202);
    await settledWorkbook(local.admin, info.id);
    const linesBefore = mirrorCounts().get('device/cucm/Line') ?? 0;
    const pushed = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: info.id } });
    expect(pushed.status, pushed.text).toBe(200);
    expect(pushed.body as SyncPushAnswer).toMatchObject({ loaded: 65, failed: 0 });
    const afterPush = await pulled();
    expect(afterPush.mode).toBe('changes');
    // The device lines were made by the remote's workflow: no transaction names them, their count told.
    expect(afterPush.reread).toContain('device/cucm/Line');
    expect(afterPush.counts['device/cucm/Line']).toBe(linesBefore + 60);
    await expectCountsAsRemote(afterPush);
    for (const modelType of ['data/Macro', 'relation/Bundle']) expect(Object.keys(afterPush.counts)).toContain(modelType);

    // A delete: a line relation, whose device line goes with it.
    const gone = await direct.get(
      `/api/relation/LineRelation/?hierarchy=${PARIS}&filter_field=pattern&filter_condition=equals&filter_text=%2B33110000003&format=json`,
    );
    const deleted = await direct.call('DELETE', `/api/relation/LineRelation/${gone.body.resources[0].meta.pkid as string}/`);
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const afterDelete = await pulled();
    expect(afterDelete.mode).toBe('changes');
    expect(afterDelete.counts['device/cucm/Line']).toBe(linesBefore + 59);
    await expectCountsAsRemote(afterDelete);

    // A move: London and what it holds, under the provider.
    const london = await nodePkid(ACME, 'London');
    const moved = await direct.call('PUT', `/api/data/HierarchyNode/${london}/?hierarchy=sys.hcs.Telco`, { json: { data: {} } });
    expect(moved.status, moved.text).toBeLessThan(300);
    const afterMove = await pulled();
    await expectCountsAsRemote(afterMove);
    const mirror = openMirror(local.dataDir, profile.id);
    try {
      expect(mirror?.store.nodes.get(london)?.path).toBe('sys.hcs.Telco.London');
    } finally {
      mirror?.close();
    }
  }, 240_000);
});

describe('a pull that would remove more than a tenth of a model', () => {
  it('is refused until allowed, whether the remote lost them or answers a broken scope', async () => {
    // The remote really lost 600 of its lines (more than a tenth of the 4,600 and the demo's).
    const listed = await direct.get(
      `/api/relation/LineRelation/?hierarchy=${PARIS}&filter_field=pattern&filter_condition=startswith&filter_text=%2B3319&limit=600&format=json`,
    );
    const hrefs = (listed.body.resources as { meta: { pkid: string } }[]).map(
      (resource) => `/api/relation/LineRelation/${resource.meta.pkid}`,
    );
    expect(hrefs).toHaveLength(600);
    const removal = await direct.call('DELETE', '/api/relation/LineRelation/?hierarchy=sys&nowait=true', { json: { hrefs } });
    expect(removal.status, removal.text).toBeLessThan(300);
    await settled(direct, removal.body.transaction_id as string);
    const before = { bytes: mirrorBytes(), status: await status() };
    const refused = await pull();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe('mass-delete');
    expect(refused.body.message).toMatch(/would remove more than a tenth/);
    expect(refused.body.details).toEqual(
      expect.arrayContaining([{ field: 'relation/LineRelation', message: expect.stringMatching(/^would remove 600 of \d+$/) }]),
    );
    expect(mirrorBytes()).toEqual(before.bytes);
    expect(await status()).toEqual(before.status);
    const allowed = await pulled({ allow_mass_delete: true });
    await expectCountsAsRemote(allowed);

    // A remote answering a broken scope: every page well formed, and no line in it.
    const made = await direct.call('POST', `/api/data/HierarchyNode/?hierarchy=${ACME}`, {
      json: { data: { name: 'Scoped', node_type: 'Site' } },
    });
    expect(made.status, made.text).toBeLessThan(300);
    const kept = { bytes: mirrorBytes(), status: await status() };
    spoiler.spoil({ how: 'empty', match: (url) => url.pathname === '/api/relation/LineRelation/' });
    try {
      const wiped = await pull();
      expect(wiped.status, wiped.text).toBe(409);
      expect(wiped.body.code).toBe('mass-delete');
      expect(mirrorBytes()).toEqual(kept.bytes);
      expect(await status()).toEqual(kept.status);
    } finally {
      spoiler.spoil(undefined);
    }
    await expectCountsAsRemote(await pulled());
  }, 240_000);
});
