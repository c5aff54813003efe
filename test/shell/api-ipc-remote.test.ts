import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CHANNEL, registerApiHandler, type IpcEventLike } from '../../main/shell/api-ipc';
import type { ApiResponse } from '../../main/service/api-types';
import type { Principal } from '../../main/service/auth/principal';
import { cleanupServers } from '../http/serve-process';
import { PARIS, REMOTE_PASSWORD, startRemote, type Client } from '../remote/remote-world';
import { openTestService, type TestService } from '../service/helpers';

/** The desktop window's door to /workstation/ and to a live workspace: the same handle() behind a structural ipcMain. */
const APP_PAGE = 'file:///app/dist/renderer/index.html';
let t: TestService;
let direct: Client;
let invoke: (request: unknown) => Promise<ApiResponse>;

beforeAll(async () => {
  const remote = await startRemote('20.1.1');
  direct = remote.direct;
  t = await openTestService();
  const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  const principal: Principal = { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
  let listener: ((event: IpcEventLike, ...args: unknown[]) => unknown) | undefined;
  registerApiHandler(
    { handle: (channel, l) => channel === API_CHANNEL && (listener = l) },
    (request) => t.service.handleAs(principal, request),
    (url) => url === APP_PAGE,
  );
  invoke = async (request) => (await listener?.({ senderFrame: { url: APP_PAGE } }, request)) as ApiResponse;
  const made = await invoke({
    method: 'POST',
    url: '/workstation/remote-profiles/',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Desk', base_url: remote.remote.url, username: 'admin', password: REMOTE_PASSWORD }),
  });
  if (made.status !== 200) throw new Error(String(made.body));
}, 60_000);
afterAll(async () => {
  t?.close();
  await cleanupServers();
});

describe('IPC and live workspaces', () => {
  it('answers /workstation/ over IPC, without the password', async () => {
    const listed = await invoke({ method: 'GET', url: '/workstation/remote-profiles/' });
    expect(listed.status).toBe(200);
    expect(JSON.parse(String(listed.body)).profiles[0]).toMatchObject({ name: 'Desk', password_stored: true });
    expect(String(listed.body)).not.toContain(REMOTE_PASSWORD);
  });

  it('carries a live request to the remote, and gathers a streamed export into whole bytes', async () => {
    const list = await invoke({
      method: 'GET',
      url: `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=2`,
      headers: { 'X-Workstation-Workspace': 'Desk' },
    });
    const straight = await direct.get(`/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=2`);
    expect(JSON.parse(String(list.body))).toEqual(straight.body);
    const pkid = straight.body.resources[0].meta.pkid as string;
    const exported = await invoke({
      method: 'GET',
      url: `/api/relation/LineRelation/${pkid}/export/?export_format=xlsx`,
      headers: { 'x-workstation-workspace': 'Desk' },
    });
    expect(exported.status).toBe(200);
    expect(exported.bodyStream).toBeUndefined();
    expect(exported.body).toBeInstanceOf(Uint8Array);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(exported.body as Uint8Array) as unknown as ArrayBuffer);
    expect(JSON.stringify(book.worksheets[0].getSheetValues())).toContain(straight.body.resources[0].data.pattern as string);
  });
});
