import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookRowPage } from '../../main/service/contract/workbook-api';
import type { RemoteProfile, SyncPushAnswer } from '../../main/service/contract/workstation-api';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { FaultProxy } from './fault-proxy';
import { basic, Client, openLocal, PARIS, REMOTE_PASSWORD, type LocalWorkstation, settledWorkbook } from './remote-world';

/**
 * The remote killed and started again in the middle of a push's load: its own recovery settles
 * the rows it had not finished. The push, run again, goes on with its load, reports each row's
 * final state as the remote has it (loaded rows exist there, failed ones do not), and a further
 * push loads the rest: every line on the remote exactly once.
 */
const LINES = 3_000;
const PREFIX = '+331405';
let remoteDir: string;
let remote: ServeProcess;
let direct: Client;
let proxy: FaultProxy;
let local: LocalWorkstation;
let profile: RemoteProfile;

async function linesOnRemote(): Promise<number> {
  const found = await direct.get(
    `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=startswith&filter_text=${encodeURIComponent(PREFIX)}&limit=1&format=json`,
  );
  return found.body.pagination.total as number;
}

async function lineOutcomes(id: string): Promise<Map<string, string>> {
  const page = (await local.admin.get(`/workstation/workbooks/${id}/sheets/1/rows/?limit=5000`)).body as WorkbookRowPage;
  return new Map(page.rows.map((row) => [String(row.index), row.outcome?.status ?? 'not run']));
}

beforeAll(async () => {
  remoteDir = tempDataDir();
  remote = await startServe({ dataDir: remoteDir, seed: 'demo', release: '20.1.1', readyTimeoutMs: 30_000 });
  direct = new Client(remote.url, basic('admin', REMOTE_PASSWORD));
  proxy = new FaultProxy(remote.port);
  await proxy.start();
  local = await openLocal();
  profile = await local.addProfile({
    name: 'Customer',
    base_url: `http://127.0.0.1:${proxy.port}`,
    username: 'admin',
    password: REMOTE_PASSWORD,
  });
  expect((await local.admin.call('POST', `/workstation/sync/${profile.name}/pull/`)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await local?.close();
  await proxy?.stop();
  await cleanupServers();
});

describe('a remote restarted in the middle of a push', () => {
  it('settles its rows itself; the push run again reports each row as the remote has it, and a next push loads the rest once', async () => {
    const phones: string[][] = [['Hierarchy Node', 'name', 'product', 'protocol']];
    for (let i = 0; i < LINES / 20; i += 1) phones.push([PARIS, `SEPHH${String(i).padStart(10, '0')}`, 'Cisco 8845', 'SIP']);
    const rows: string[][] = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
    for (let i = 0; i < LINES; i += 1)
      rows.push([
        PARIS,
        `SEPHH${String(Math.floor(i / 20)).padStart(10, '0')}`,
        `${PREFIX}${String(i).padStart(6, '0')}`,
        `Restart ${i}`,
        'Paris-PT',
      ]);
    const form = new FormData();
    form.append(
      'uploadedfile',
      new Blob([
        await workbookOf([
          { name: 'Phone', rows: phones },
          { name: 'LineRelation', rows },
        ]),
      ]),
      'restart.xlsx',
    );
    expect((await local.admin.call('POST', '/api/uploadfiles/?hierarchy=sys', { form })).status).toBe(200);
    const made = await local.admin.call('POST', '/workstation/workbooks/', {
      json: { from: 'upload', file: 'restart.xlsx', profile: profile.name, hierarchy: PARIS },
    });
    expect(made.status, made.text).toBe(202);
    const id = made.body.workbook.id as string;
    await settledWorkbook(local.admin, id);

    const pushing = local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: id } });
    // A third of the remote's load done, the remote is killed.
    for (;;) {
      const listed = await direct.get(
        '/api/tool/Transaction/?hierarchy=sys&filter_field=detail&filter_condition=contains&filter_text=workstation-push-&limit=1&format=json',
      );
      const detail = String(listed.body.resources?.[0]?.data?.detail ?? '');
      const done = /^\[ (\d+)\/(\d+) \]/.exec(detail);
      if (done && Number(done[1]) * 3 >= Number(done[2])) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    remote.child.kill('SIGKILL');
    await remote.exited;
    const cut = await pushing;
    expect(cut.status).toBeGreaterThanOrEqual(500);

    // The remote starts again on its data (its recovery settles the unfinished load), behind the same address.
    remote = await startServe({ dataDir: remoteDir, release: '20.1.1', readyTimeoutMs: 30_000 });
    direct = new Client(remote.url, basic('admin', REMOTE_PASSWORD));
    const port = proxy.port;
    await proxy.stop();
    proxy = new FaultProxy(remote.port, port);
    await proxy.start();

    const resumed = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: id } });
    expect(resumed.status, resumed.text).toBe(200);
    const answer = resumed.body as SyncPushAnswer;
    expect(answer.resumed).toBe(true);
    expect(answer.loaded + answer.failed).toBe(answer.pushed);
    expect(answer.failed).toBeGreaterThan(0);
    // Truthful, row by row: a line reported loaded is on the remote, one reported failed is not.
    const outcomes = await lineOutcomes(id);
    const loadedLines = [...outcomes.values()].filter((status) => status === 'loaded').length;
    expect(await linesOnRemote()).toBe(loadedLines);
    for (const [index, status] of [...outcomes].filter((_, at) => at % 250 === 0)) {
      const found = await direct.get(
        `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(`${PREFIX}${index.padStart(6, '0')}`)}&format=json`,
      );
      expect(found.body.pagination.total, `row ${index}: ${status}`).toBe(status === 'loaded' ? 1 : 0);
    }

    const rest = await local.admin.call('POST', `/workstation/sync/${profile.name}/push/`, { json: { workbook: id } });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body).toMatchObject({ resumed: false, failed: 0, loaded: LINES + LINES / 20 });
    expect(await linesOnRemote()).toBe(LINES);
  }, 240_000);
});
