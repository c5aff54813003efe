import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/** A browser's session over real HTTP: cookies from the login, the CSRF token on every write. */
let server: ServeProcess;
let api: ApiClient;

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir() });
  api = new ApiClient(server.url);
});
afterAll(cleanupServers);

interface Session {
  cookie: string;
  token: string;
  setCookies: string[];
}

async function login(username = ADMIN.username, password = ADMIN.password): Promise<Session> {
  const answer = await api.post<{ success: boolean; role: string }>('/noninteractivelogin/', { username, password }, { auth: false });
  expect(answer.status).toBe(200);
  const setCookies = answer.headers.getSetCookie();
  const cookie = setCookies.map((line) => line.split(';')[0]).join('; ');
  return { cookie, token: answer.headers.get('x-csrftoken') ?? '', setCookies };
}

const countries = async (): Promise<number> =>
  (await api.get<{ pagination: { total: number } }>('/api/data/Countries/?hierarchy=sys')).body.pagination.total;

describe('sessions and CSRF over HTTP', () => {
  it('sets sessionid and csrftoken cookies, HttpOnly, Path=/, SameSite=Lax, and returns the token', async () => {
    const session = await login();
    expect(session.token.length).toBeGreaterThan(20);
    for (const name of ['sessionid', 'csrftoken']) {
      const line = session.setCookies.find((candidate) => candidate.startsWith(`${name}=`));
      expect(line, name).toMatch(/; HttpOnly; Path=\/; SameSite=Lax$/);
    }
    const read = await api.get('/api/data/Countries/?hierarchy=sys', { auth: false, headers: { cookie: session.cookie } });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-csrftoken')).toBe(session.token);
  });

  it('refuses a cookie-authenticated POST without the token, changing nothing, and takes it with the token', async () => {
    const session = await login();
    const before = await countries();
    const data = { data: { country_name: 'Austria', iso_code: 'AT' } };
    const refused = await api.post<{ code: string; http_code: number }>('/api/data/Countries/?hierarchy=sys', data, {
      auth: false,
      headers: { cookie: session.cookie },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ http_code: 403, code: 'csrf-failed' });
    const wrong = await api.post('/api/data/Countries/?hierarchy=sys', data, {
      auth: false,
      headers: { cookie: session.cookie, 'x-csrftoken': 'forged' },
    });
    expect(wrong.status).toBe(403);
    expect(await countries()).toBe(before);
    const accepted = await api.post('/api/data/Countries/?hierarchy=sys', data, {
      auth: false,
      headers: { cookie: session.cookie, 'x-csrftoken': session.token },
    });
    expect(accepted.status).toBe(200);
    expect(await countries()).toBe(before + 1);
  });

  it('needs no token for Basic-authenticated writes, and still sends one back', async () => {
    const answer = await api.post('/api/data/Countries/?hierarchy=sys', { data: { country_name: 'Belgium', iso_code: 'BE' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-csrftoken')).toEqual(expect.any(String));
  });

  it('ends the session at logout: the cookie no longer authenticates', async () => {
    const session = await login();
    const out = await api.call('POST', '/logout/', { auth: false, headers: { cookie: session.cookie, 'x-csrftoken': session.token } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().some((line) => /^sessionid=; Max-Age=0/.test(line))).toBe(true);
    const after = await api.get('/api/data/Countries/?hierarchy=sys', { auth: false, headers: { cookie: session.cookie } });
    expect(after.status).toBe(401);
  });

  it('refuses a wrong password at login with 401 and sets no cookie', async () => {
    const answer = await api.post('/noninteractivelogin/', { username: 'admin', password: 'not-it' }, { auth: false });
    expect(answer.status).toBe(401);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });
});
