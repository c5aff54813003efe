import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteProfileAnswer, RemoteProfileList, WorkspaceList } from '../../main/service/contract/workstation-api';
import { ACME, PARIS, openTestService, q, type TestService } from './helpers';

/** /workstation/remote-profiles/: admins make and use profiles; passwords never come back or reach the store file. */
let t: TestService;
const SECRET = 'Remote-Pa55word-never-shown';
const PASSWORD = 'profiles-user-password-1';
const as = (username: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${username}:${PASSWORD}`).toString('base64')}`,
});

beforeAll(async () => {
  t = await openTestService({ demo: true });
  for (const [username, role, hierarchy] of [
    ['reader', 'readonly', 'sys'],
    ['operator1', 'operator', 'sys'],
    ['siteadmin', 'admin', PARIS],
    ['acmeadmin', 'admin', ACME],
  ]) {
    const made = await t.call('POST', `/api/data/User/${q(hierarchy)}`, { data: { username, role, password: PASSWORD } });
    if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  }
});
afterAll(() => t.close());

const profile = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  base_url: 'https://voss.example.test:8443/',
  username: 'provisioner',
  password: SECRET,
  ...extra,
});

describe('remote profiles', () => {
  it('lets an admin make, read, change and delete a profile; the answer never holds the password', async () => {
    const made = await t.call(
      'POST',
      '/workstation/remote-profiles/',
      profile('AcmeProd', { release: '20.1.1', timeouts: { connect_ms: 2000 } }),
    );
    expect(made.status).toBe(200);
    const answer = made.body as RemoteProfileAnswer;
    expect(answer.profile).toMatchObject({
      name: 'AcmeProd',
      base_url: 'https://voss.example.test:8443',
      username: 'provisioner',
      auth_mode: 'session',
      release: '20.1.1',
      release_line: 'before-21.1',
      password_stored: true,
      owner: 'admin',
      hierarchy: 'sys',
      timeouts: { connect_ms: 2000, response_ms: 60000, idle_ms: 30000 },
    });
    expect(made.text).not.toContain(SECRET);
    const byName = await t.get('/workstation/remote-profiles/AcmeProd/');
    expect(byName.body.profile.id).toBe(answer.profile.id);
    const changed = await t.call('PUT', `/workstation/remote-profiles/${answer.profile.id}`, { release: null, auth_mode: 'basic' });
    expect(changed.body.profile).toMatchObject({ release: null, release_line: null, auth_mode: 'basic', password_stored: true });
    const listed = (await t.get('/workstation/remote-profiles/')).body as RemoteProfileList;
    expect(listed.profiles.map((p) => p.name)).toContain('AcmeProd');
    expect(listed.vault).toEqual({ kind: 'memory', persistent: false, warning: null });
    expect(JSON.stringify(listed)).not.toContain(SECRET);
    const workspaces = (await t.get('/workstation/workspaces')).body as WorkspaceList;
    expect(workspaces.workspaces.map((w) => w.name)).toEqual(['Local', 'AcmeProd']);
    expect((await t.call('DELETE', '/workstation/remote-profiles/AcmeProd/')).status).toBe(200);
    expect((await t.get('/workstation/remote-profiles/AcmeProd/')).status).toBe(404);
  });

  it('refuses bad fields all at once, naming each, and never echoes a password', async () => {
    const bad = await t.call('POST', '/workstation/remote-profiles/', {
      name: 'has space',
      base_url: `https://user:${SECRET}@voss.example.test/`,
      username: '',
      password: SECRET,
      ca_pem: 'not a certificate',
      timeouts: { connect_ms: 5 },
      colour: 'red',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation-failed');
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'base_url',
      'ca_pem',
      'colour',
      'name',
      'timeouts.connect_ms',
      'username',
    ]);
    expect(bad.text).not.toContain(SECRET);
    const missing = await t.call('POST', '/workstation/remote-profiles/', { name: 'Half' });
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['base_url', 'username']);
    expect((await t.call('POST', '/workstation/remote-profiles/', profile('Twice'))).status).toBe(200);
    const twice = await t.call('POST', '/workstation/remote-profiles/', profile('twice'));
    expect([twice.status, twice.body.code]).toEqual([409, 'conflict']);
  });

  it('keeps the password out of the store file', async () => {
    expect((await t.call('POST', '/workstation/remote-profiles/', profile('StoreCheck'))).status).toBe(200);
    t.service.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const text = readFileSync(join(t.dataDir, 'workspaces', 'Local.sqlite')).toString('latin1');
    expect(text).toContain('StoreCheck');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
  });

  it("is for admins: readonly and operator users can neither make, see nor use a profile; a site admin cannot use a sys admin's", async () => {
    const made = await t.call('POST', '/workstation/remote-profiles/', profile('SysOnly'));
    expect(made.status).toBe(200);
    for (const user of ['reader', 'operator1']) {
      const create = await t.call('POST', '/workstation/remote-profiles/', profile(`By-${user}`), as(user));
      expect([create.status, create.body.code], user).toEqual([403, 'permission-denied']);
      expect((await t.get('/workstation/remote-profiles/', as(user))).body.profiles).toEqual([]);
      expect((await t.get('/workstation/remote-profiles/SysOnly/', as(user))).status).toBe(403);
      const live = await t.get(`/api/data/Countries/${q('sys')}`, { ...as(user), 'x-workstation-workspace': 'SysOnly' });
      expect([live.status, live.body.code], user).toEqual([403, 'permission-denied']);
      expect(live.text).not.toContain('voss.example.test');
    }
    const site = await t.get('/workstation/remote-profiles/SysOnly/', as('siteadmin'));
    expect(site.status).toBe(404);
    const siteLive = await t.get(`/api/data/Countries/${q(PARIS)}`, { ...as('siteadmin'), 'x-workstation-workspace': 'SysOnly' });
    expect(siteLive.status).toBe(404);
    // An Acme admin's own profile is usable by the admins above it, not by the site below it.
    const acme = await t.call('POST', '/workstation/remote-profiles/', profile('AcmeOwn'), as('acmeadmin'));
    expect(acme.body.profile.hierarchy).toBe(ACME);
    expect((await t.get('/workstation/remote-profiles/AcmeOwn/')).status).toBe(200);
    expect((await t.get('/workstation/remote-profiles/AcmeOwn/', as('siteadmin'))).status).toBe(404);
  });

  it('needs the CSRF token for session writes and answers unknown endpoints in the fault shape', async () => {
    const login = await t.service.handle({
      method: 'POST',
      url: '/noninteractivelogin/',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'test-admin-password' }),
    });
    const cookie = (login.headers['set-cookie'] as string[]).map((line) => line.split(';')[0]).join('; ');
    const write = await t.service.handle({
      method: 'POST',
      url: '/workstation/remote-profiles/',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(profile('NoToken')),
    });
    expect(write.status).toBe(403);
    expect(JSON.parse(String(write.body))).toMatchObject({ success: false, http_code: 403, code: 'csrf-failed' });
    const unknown = await t.get('/workstation/nothing-here/');
    expect(unknown.body).toMatchObject({ success: false, http_code: 404, code: 'not-found' });
    const noAuth = await t.service.handle({ method: 'GET', url: '/workstation/remote-profiles/' });
    expect(noAuth.status).toBe(401);
    const wrongMethod = await t.call('PATCH', '/workstation/remote-profiles/');
    expect(wrongMethod.body.code).toBe('method-not-allowed');
  });

  it('refuses what a cross-site page could send: a foreign Origin, a form-encoded or text body', async () => {
    const before = (await t.get('/workstation/remote-profiles/')).body.profiles.length as number;
    const body = JSON.stringify(profile('CrossSite'));
    const foreign = await t.service.handle({
      method: 'POST',
      url: '/workstation/remote-profiles/',
      headers: {
        authorization: 'Basic ' + Buffer.from('admin:test-admin-password').toString('base64'),
        'content-type': 'application/json',
        host: '127.0.0.1:7080',
        origin: 'http://evil.example',
      },
      body,
    });
    expect(JSON.parse(String(foreign.body))).toMatchObject({ http_code: 403, code: 'csrf-failed' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const refused = await t.call('POST', '/workstation/remote-profiles/', body, { 'content-type': type });
      expect([refused.status, refused.body.code], type).toEqual([415, 'unsupported-media-type']);
    }
    expect((await t.get('/workstation/remote-profiles/')).body.profiles.length).toBe(before);
  });

  it('answers a live request with remote-auth when no password is held, and never forwards /workstation/', async () => {
    const made = await t.call('POST', '/workstation/remote-profiles/', {
      name: 'NoPassword',
      base_url: 'http://127.0.0.1:9',
      username: 'x',
    });
    expect(made.body.profile.password_stored).toBe(false);
    const live = await t.get(`/api/data/Countries/${q('sys')}`, { 'x-workstation-workspace': 'NoPassword' });
    expect(live.body).toMatchObject({ success: false, http_code: 502, code: 'remote-auth' });
    const local = await t.get('/workstation/remote-profiles/', { 'x-workstation-workspace': 'NoPassword' });
    expect(local.status).toBe(200);
    const tested = await t.call('POST', '/workstation/remote-profiles/NoPassword/test/');
    expect(tested.body).toMatchObject({ success: false, verdict: 'no-password' });
  });
});
