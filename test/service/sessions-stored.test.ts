import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, BASIC, openTestService, type TestService } from './helpers';

/** Sessions of server mode live in the store (issue 14, point 6): restarts keep them, logout ends them. */
const dataDir = mkdtempSync(join(tmpdir(), 'workstation-sessions-'));
const opened: TestService[] = [];
afterAll(() => {
  for (const t of opened) t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function open(): Promise<TestService> {
  const t = await openTestService({ dataDir });
  opened.push(t);
  return t;
}

const cookiesOf = (headers: Record<string, string | string[]>): string[] => {
  const value = headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};
const cookieHeader = (lines: string[]): string =>
  lines
    .filter((line) => /^(sessionid|csrftoken)=/.test(line))
    .map((line) => line.split(';')[0])
    .join('; ');

async function login(t: TestService): Promise<{ cookie: string; token: string }> {
  const answer = await t.service.handle({
    method: 'POST',
    url: '/noninteractivelogin/',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  expect(answer.status).toBe(200);
  return { cookie: cookieHeader(cookiesOf(answer.headers)), token: String(answer.headers['x-csrftoken']) };
}

const read = (t: TestService, cookie: string) =>
  t.service.handle({ method: 'GET', url: '/api/data/Countries/?hierarchy=sys', headers: { cookie } });

describe('sessions kept in the store', () => {
  it('keeps a signed-in browser signed in across a restart, and logout ends the session for good', async () => {
    const first = await open();
    const { cookie, token } = await login(first);
    expect((await read(first, cookie)).status).toBe(200);
    first.close();
    opened.splice(opened.indexOf(first), 1);

    const second = await open();
    const after = await read(second, cookie);
    expect(after.status).toBe(200);
    expect(after.headers['x-csrftoken']).toBe(token);
    // The stored session still carries its CSRF token: a write with it is taken, without it refused.
    const write = (headers: Record<string, string>) =>
      second.service.handle({
        method: 'POST',
        url: '/api/data/Countries/?hierarchy=sys',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ data: { country_name: 'Restartland', iso_code: 'RL' } }),
      });
    expect((await write({})).status).toBe(403);
    expect((await write({ 'x-csrftoken': token })).status).toBe(200);

    const out = await second.service.handle({ method: 'POST', url: '/logout/', headers: { cookie, 'x-csrftoken': token } });
    expect(out.status).toBe(200);
    expect((await read(second, cookie)).status).toBe(401);
    second.close();
    opened.splice(opened.indexOf(second), 1);
    const third = await open();
    expect((await read(third, cookie)).status).toBe(401);
  });

  it('stores no session id: the file holds only its hash', async () => {
    const t = await open();
    const { cookie } = await login(t);
    const sessionId = /sessionid=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect(sessionId.length).toBeGreaterThan(20);
    t.service.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const text = readFileSync(join(dataDir, 'workspaces', 'Local.sqlite')).toString('latin1');
    expect(text).not.toContain(sessionId);
    expect((t.service.store.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBeGreaterThan(0);
  });

  it('sets sessionid and csrftoken (HttpOnly, Path=/) on Basic answers, faults included, and the cookie then signs in alone', async () => {
    const t = await open();
    const answer = await t.get('/api/data/Countries/?hierarchy=sys');
    const lines = cookiesOf(answer.headers);
    for (const name of ['sessionid', 'csrftoken']) {
      expect(
        lines.find((line) => line.startsWith(`${name}=`)),
        name,
      ).toMatch(/; HttpOnly; Path=\/(;|$)/);
    }
    const token = String(answer.headers['x-csrftoken']);
    expect(lines.find((line) => line.startsWith('csrftoken='))).toContain(`csrftoken=${token};`);
    const byCookie = await read(t, cookieHeader(lines));
    expect(byCookie.status).toBe(200);
    expect(byCookie.headers['x-csrftoken']).toBe(token);
    const fault = await t.get('/api/data/Countries/?hierarchy=sys.nowhere');
    expect(fault.status).toBe(404);
    expect(cookiesOf(fault.headers).some((line) => line.startsWith('sessionid='))).toBe(true);
    // Many Basic calls share one stored session rather than leaving one behind each.
    const count = () => (t.service.store.db.prepare("SELECT count(*) AS n FROM sessions WHERE origin = 'basic'").get() as { n: number }).n;
    const before = count();
    for (let i = 0; i < 5; i += 1) await t.get('/api/data/Countries/?hierarchy=sys');
    expect(count()).toBe(before);
  });

  it('keeps the cookie of an export beside the session cookies', async () => {
    const t = await open();
    const made = await t.call('POST', '/api/data/Countries/?hierarchy=sys', { data: { country_name: 'Exportland', iso_code: 'EX' } });
    const exported = await t.get(`/api/data/Countries/${made.body.pkid as string}/export/?hierarchy=sys&export_format=xlsx`);
    expect(exported.status).toBe(200);
    const names = cookiesOf(exported.headers).map((line) => line.split('=')[0]);
    expect(names).toEqual(expect.arrayContaining(['fileDownloadToken', 'sessionid', 'csrftoken']));
  });

  it('ends the sessions of a user whose password changes', async () => {
    const t = await open();
    const made = await t.call('POST', '/api/data/User/?hierarchy=sys', {
      data: { username: 'rotating', role: 'operator', password: 'first-password-1' },
    });
    expect(made.status).toBe(200);
    const basic = `Basic ${Buffer.from('rotating:first-password-1').toString('base64')}`;
    const first = await t.service.handle({ method: 'GET', url: '/api/data/Countries/?hierarchy=sys', headers: { authorization: basic } });
    const cookie = cookieHeader(cookiesOf(first.headers));
    expect((await read(t, cookie)).status).toBe(200);
    const changed = await t.call(
      'PUT',
      `/api/data/User/${made.body.pkid as string}/`,
      { data: { password: 'second-password-2' } },
      { authorization: BASIC },
    );
    expect(changed.status).toBe(200);
    expect((await read(t, cookie)).status).toBe(401);
  });
});
