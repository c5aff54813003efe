import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CHANNEL, registerApiHandler, type IpcEventLike, type IpcMainLike } from '../../main/shell/api-ipc';
import { openTestService, type TestService } from '../service/helpers';

/** ipcMain as the handler sees it: a map of channel to listener, nothing of Electron. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void {
    this.handlers.set(channel, listener);
  }
  invoke(senderUrl: string | null, request: unknown): Promise<{ status: number; body: string }> {
    const listener = this.handlers.get(API_CHANNEL);
    if (!listener) throw new Error('no api:request handler registered');
    return Promise.resolve(listener({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, request)) as Promise<{ status: number; body: string }>;
  }
}

const APP_PAGE = 'file:///app/dist/renderer/index.html';
let t: TestService;
let ipc: FakeIpcMain;

beforeAll(async () => {
  t = await openTestService();
  ipc = new FakeIpcMain();
  const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  const principal = { pkid: admin.pkid, username: 'admin', role: 'admin' as const, hierarchyPkid: admin.hierarchyPkid };
  registerApiHandler(ipc, (request) => t.service.handleAs(principal, request), (url) => url === APP_PAGE);
});
afterAll(() => t.close());

describe('the api:request IPC handler', () => {
  it('answers the app page through the same handle() as HTTP', async () => {
    const reply = await ipc.invoke(APP_PAGE, { method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).resources[0].data.name).toBe('sys');
  });

  it('refuses any other sender, and a frame-less one, with Permission Denied', async () => {
    for (const sender of ['https://evil.example/', 'file:///tmp/other.html', null]) {
      const reply = await ipc.invoke(sender, { method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys' });
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body).message).toMatch(/^Permission Denied/);
    }
  });

  it('refuses requests that are not API requests', async () => {
    for (const request of [null, 'GET /api/', { method: 'GET', url: 'file:///etc/passwd' }, { method: 'GET', url: '/api/x', body: { not: 'serialised' } }]) {
      const reply = await ipc.invoke(APP_PAGE, request);
      expect(reply.status).toBe(400);
    }
  });

  it('passes faults through as data, and writes go through transactions', async () => {
    const missing = await ipc.invoke(APP_PAGE, { method: 'GET', url: '/api/data/Countries/' });
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, http_code: 400, code: 'hierarchy-required' });
    const created = await ipc.invoke(APP_PAGE, {
      method: 'POST',
      url: '/api/data/Countries/?hierarchy=sys',
      body: JSON.stringify({ data: { country_name: 'Estonia', iso_code: 'EE' } }),
    });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body).transaction_id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
