import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, workspaceFile } from '../../main/service';
import { ADMIN_PASSWORD, openTestService, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService();
});
afterAll(() => t.close());

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate when no credentials are sent', async () => {
    const reply = await t.service.handle({ method: 'GET', url: `/api/data/Countries/${q('sys')}` });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Basic realm="workstation"');
    expect(JSON.parse(String(reply.body))).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
  });

  it('leaves out WWW-Authenticate for XMLHttpRequest callers so browsers show no password prompt', async () => {
    const reply = await t.service.handle({
      method: 'GET',
      url: `/api/data/Countries/${q('sys')}`,
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBeUndefined();
  });

  it('refuses a wrong password and an unknown user, and accepts the admin', async () => {
    for (const authorization of [basic('admin', 'wrong-password'), basic('nobody', ADMIN_PASSWORD), 'Basic !!!', 'Bearer abc']) {
      const reply = await t.get(`/api/data/Countries/${q('sys')}`, { authorization });
      expect(reply.status, authorization).toBe(401);
    }
    expect((await t.get(`/api/data/Countries/${q('sys')}`)).status).toBe(200);
  });

  it('stores passwords only as scrypt hashes and never returns them', async () => {
    const created = await t.call('POST', `/api/data/User/${q('sys')}`, {
      data: { username: 'field.engineer', role: 'operator', email: 'fe@example.com', password: 'Sup3r-secret-pw' },
    });
    expect(created.status).toBe(200);
    const row = t.service.store.credentials.get(created.body.pkid);
    expect(row?.password_hash).toMatch(/^scrypt\$/);
    expect(row?.password_hash).not.toContain('Sup3r-secret-pw');
    const user = await t.get(`/api/data/User/${created.body.pkid}/`);
    expect(user.body.data).toEqual({ username: 'field.engineer', role: 'operator', email: 'fe@example.com' });
    const list = await t.get(`/api/data/User/${q('sys', '&summary=false')}`);
    expect(list.text).not.toContain('Sup3r');
    expect(list.text).not.toContain('password');
    const ok = await t.get(`/api/data/Countries/${q('sys')}`, { authorization: basic('field.engineer', 'Sup3r-secret-pw') });
    expect(ok.status).toBe(200);
    const wal =
      readFileSync(`${workspaceFile(t.dataDir)}-wal`).toString('latin1') + readFileSync(workspaceFile(t.dataDir)).toString('latin1');
    expect(wal).not.toContain('Sup3r-secret-pw');
  });

  it('takes a changed password into account at once, despite the credentials cache', async () => {
    const created = await t.call('POST', `/api/data/User/${q('sys')}`, {
      data: { username: 'rotating', role: 'readonly', password: 'first-password' },
    });
    const first = basic('rotating', 'first-password');
    expect((await t.get(`/api/data/Countries/${q('sys')}`, { authorization: first })).status).toBe(200);
    const changed = await t.call('PUT', `/api/data/User/${created.body.pkid}/`, { data: { password: 'second-password' } });
    expect(changed.status).toBe(200);
    expect((await t.get(`/api/data/Countries/${q('sys')}`, { authorization: first })).status).toBe(401);
    expect((await t.get(`/api/data/Countries/${q('sys')}`, { authorization: basic('rotating', 'second-password') })).status).toBe(200);
  });
});

describe('the first admin', () => {
  it('takes WORKSTATION_ADMIN_PASSWORD, or a random password reported once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workstation-admin-'));
    try {
      const previous = process.env.WORKSTATION_ADMIN_PASSWORD;
      delete process.env.WORKSTATION_ADMIN_PASSWORD;
      const first = await createService({ dataDir: dir, log: () => undefined });
      const password = first.generatedAdminPassword;
      expect(password).toMatch(/^[A-Za-z0-9_-]{12,}$/);
      const reply = await first.handle({
        method: 'GET',
        url: '/api/data/User/?hierarchy=sys',
        headers: { authorization: basic('admin', password ?? '') },
      });
      expect(reply.status).toBe(200);
      first.close();
      const second = await createService({ dataDir: dir, log: () => undefined });
      expect(second.generatedAdminPassword).toBeUndefined();
      second.close();
      process.env.WORKSTATION_ADMIN_PASSWORD = 'from-the-environment';
      const other = mkdtempSync(join(tmpdir(), 'workstation-admin-'));
      const third = await createService({ dataDir: other, log: () => undefined });
      expect(third.generatedAdminPassword).toBeUndefined();
      const viaEnv = await third.handle({
        method: 'GET',
        url: '/api/data/User/?hierarchy=sys',
        headers: { authorization: basic('admin', 'from-the-environment') },
      });
      expect(viaEnv.status).toBe(200);
      third.close();
      rmSync(other, { recursive: true, force: true });
      if (previous === undefined) delete process.env.WORKSTATION_ADMIN_PASSWORD;
      else process.env.WORKSTATION_ADMIN_PASSWORD = previous;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('who am I', () => {
  it('tells the caller its user name, role, node and workspace, and needs authentication', async () => {
    const created = await t.call('POST', `/api/data/User/${q('sys')}`, {
      data: { username: 'who.ami', role: 'readonly', password: 'Who-am-i-pw-1' },
    });
    expect(created.status).toBe(200);
    const reply = await t.get('/api/whoami/', { authorization: basic('who.ami', 'Who-am-i-pw-1') });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ username: 'who.ami', role: 'readonly', hierarchy: 'sys', workspace: 'Local' });
    expect(reply.body.hierarchy_pkid).toMatch(/^[0-9a-f]{24}$/);
    expect((await t.service.handle({ method: 'GET', url: '/api/whoami/' })).status).toBe(401);
    expect((await t.call('POST', '/api/whoami/', {})).status).toBe(405);
  });
});
