import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CHANNEL, registerApiHandler, type IpcEventLike, type IpcMainLike } from '../../main/shell/api-ipc';
import { isAppPage } from '../../main/shell/window-security';
import type { ApiRequest } from '../../main/service/api-types';
import type { Principal } from '../../main/service/auth/principal';
import { openTestService, type TestService } from '../service/helpers';

type Listener = (event: IpcEventLike, ...args: unknown[]) => unknown;

/** ipcMain as the handler sees it: a map of channel to listener, nothing of Electron. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    this.handlers.set(channel, listener);
  }
  invoke(
    senderUrl: string | null,
    request: unknown,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: string }> {
    const listener = this.handlers.get(API_CHANNEL);
    if (!listener) throw new Error('no api:request handler registered');
    return Promise.resolve(listener({ senderFrame: senderUrl === null ? null : { url: senderUrl } }, request)) as Promise<{
      status: number;
      headers: Record<string, string | string[]>;
      body: string;
    }>;
  }
}

const APP_PAGE = 'file:///app/dist/renderer/index.html';
const CREATE_COUNTRY = {
  method: 'POST',
  url: '/api/data/Countries/?hierarchy=sys',
  // As the renderer sends it: the service takes JSON bodies only as application/json.
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ data: { country_name: 'Latvia', iso_code: 'LV' } }),
};
let t: TestService;
let ipc: FakeIpcMain;
let principal: Principal;
const seen: ApiRequest[] = [];

beforeAll(async () => {
  t = await openTestService();
  ipc = new FakeIpcMain();
  const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  principal = { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid };
  const handle = (request: ApiRequest) => {
    seen.push(request);
    return t.service.handleAs(principal, request);
  };
  registerApiHandler(ipc, handle, (url) => isAppPage(APP_PAGE, url));
});
afterAll(() => t.close());

describe('the api:request IPC handler', () => {
  it('answers the app page through the same handle() as HTTP', async () => {
    const reply = await ipc.invoke(APP_PAGE, { method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys' });
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).resources[0].data.name).toBe('sys');
  });

  it('answers the app page whatever its in-page route (hash or query)', async () => {
    for (const sender of [`${APP_PAGE}#/resources/data/Countries`, `${APP_PAGE}?view=search`]) {
      const reply = await ipc.invoke(sender, { method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys' });
      expect(reply.status).toBe(200);
    }
  });

  it('lets /api/whoami/ through to the service, whatever it answers', async () => {
    const direct = await t.service.handleAs(principal, { method: 'GET', url: '/api/whoami/' });
    const reply = await ipc.invoke(APP_PAGE, { method: 'GET', url: '/api/whoami/' });
    expect(reply.status).toBe(direct.status);
    expect(reply.status).not.toBe(403);
  });

  it('refuses any other sender, and a frame-less one, with Permission Denied, and stores nothing', async () => {
    const before = t.snapshot({ withTransactions: true });
    const calls = seen.length;
    for (const sender of [
      'https://evil.example/',
      'file:///tmp/other.html',
      'file:///app/dist/renderer/index.html.evil',
      'not a url',
      null,
    ]) {
      const reply = await ipc.invoke(sender, CREATE_COUNTRY);
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toMatchObject({ success: false, http_code: 403, code: 'permission-denied' });
      expect(JSON.parse(reply.body).message).toMatch(/^Permission Denied/);
    }
    expect(seen.length).toBe(calls);
    await t.service.idle();
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('refuses requests that are not API requests with 400, before the service sees them', async () => {
    const before = t.snapshot({ withTransactions: true });
    const calls = seen.length;
    const malformed = [
      null,
      undefined,
      'GET /api/',
      [CREATE_COUNTRY],
      { url: '/api/data/Countries/?hierarchy=sys' },
      { method: 'GET', url: 'file:///etc/passwd' },
      { method: 'GET', url: 'https://remote.example/api/data/Countries/' },
      { method: 'POST', url: '/api/data/Countries/?hierarchy=sys', body: { data: { country_name: 'Latvia' } } },
      { ...CREATE_COUNTRY, headers: { 'content-type': 42 } },
      { ...CREATE_COUNTRY, headers: 'content-type: application/json' },
    ];
    for (const request of malformed) {
      const reply = await ipc.invoke(APP_PAGE, request);
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body)).toMatchObject({ success: false, http_code: 400, code: 'bad-request' });
    }
    expect(seen.length).toBe(calls);
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it('passes faults through unchanged, as data', async () => {
    const faults = ['/api/data/Countries/0123456789abcdef01234567/?hierarchy=sys', '/api/data/Countries/', '/api/nothing/'];
    for (const url of faults) {
      const direct = await t.service.handleAs(principal, { method: 'GET', url });
      const reply = await ipc.invoke(APP_PAGE, { method: 'GET', url });
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect({ status: reply.status, body: JSON.parse(reply.body) }).toEqual({
        status: direct.status,
        body: JSON.parse(String(direct.body)),
      });
    }
    const missing = await ipc.invoke(APP_PAGE, { method: 'GET', url: faults[0] });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ success: false, http_code: 404, code: 'not-found' });
    const unscoped = await ipc.invoke(APP_PAGE, { method: 'GET', url: faults[1] });
    expect(unscoped.status).toBe(400);
    expect(JSON.parse(unscoped.body)).toMatchObject({ success: false, http_code: 400, code: 'hierarchy-required' });
  });

  it('gives the service header names in lower case, as node:http does', async () => {
    await ipc.invoke(APP_PAGE, { method: 'GET', url: '/api/data/HierarchyNode/?hierarchy=sys', headers: { Accept: 'application/json' } });
    expect(seen.at(-1)?.headers).toEqual({ accept: 'application/json' });
  });

  it('sends writes through transactions', async () => {
    const created = await ipc.invoke(APP_PAGE, {
      ...CREATE_COUNTRY,
      body: JSON.stringify({ data: { country_name: 'Estonia', iso_code: 'EE' } }),
    });
    expect(created.status).toBe(200);
    expect(JSON.parse(created.body).transaction_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a crash in handle() into a 500 fault rather than a rejected invoke', async () => {
    const crashing = new FakeIpcMain();
    registerApiHandler(
      crashing,
      () => Promise.reject(new Error('boom')),
      () => true,
    );
    const reply = await crashing.invoke(APP_PAGE, { method: 'GET', url: '/api/whoami/' });
    expect(reply.status).toBe(500);
    expect(JSON.parse(reply.body)).toMatchObject({ success: false, http_code: 500, code: 'internal-error' });
    expect(reply.body).not.toContain('boom');
  });
});
