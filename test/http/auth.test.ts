import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ApiClient, type Fault } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/** Basic authentication on every /api/ request, as a script and as a browser meet it. */
let server: ServeProcess;
let api: ApiClient;
const PATH = '/api/data/HierarchyNode/?hierarchy=sys';

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir() });
  api = new ApiClient(server.url);
});
afterAll(cleanupServers);

describe('authentication over HTTP', () => {
  it('answers 401 with a Basic challenge and the fault body when no credentials are sent', async () => {
    const answer = await api.get<Fault>(PATH, { auth: false });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Basic realm="workstation"');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.body).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
    expect(answer.body.message).toEqual(expect.any(String));
    expect(answer.body.message.length).toBeGreaterThan(0);
  });

  it('leaves out the challenge for XMLHttpRequest so a browser shows no password prompt', async () => {
    const answer = await api.get<Fault>(PATH, { auth: false, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.has('www-authenticate')).toBe(false);
    expect(answer.body).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
  });

  it('refuses a wrong password and an unknown user', async () => {
    const wrong = await api.get<Fault>(PATH, { auth: { username: 'admin', password: `${ADMIN.password}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
    const unknown = await api.get<Fault>(PATH, { auth: { username: 'nobody', password: ADMIN.password } });
    expect(unknown.status).toBe(401);
  });

  it('refuses a write without credentials and stores nothing', async () => {
    const before = await api.total('data/Countries', 'sys');
    const answer = await api.post<Fault>(
      '/api/data/Countries/?hierarchy=sys',
      { data: { country_name: 'Nowhere', iso_code: 'NW' } },
      { auth: false },
    );
    expect(answer.status).toBe(401);
    expect(await api.total('data/Countries', 'sys')).toBe(before);
  });

  it('serves the right credentials', async () => {
    const answer = await api.get<{ resources: unknown[] }>(PATH);
    expect(answer.status).toBe(200);
    expect(answer.body.resources.length).toBeGreaterThanOrEqual(1);
  });

  it('answers a burst of parallel first requests with one login, and never caches a wrong password', async () => {
    const user = { username: 'burst.user', password: 'burst-password-1' };
    const created = await api.post('/api/data/User/?hierarchy=sys', { data: { ...user, role: 'readonly' } });
    expect(created.status).toBe(200);
    // All of these arrive before any check of this password has finished: they share it.
    const good = new ApiClient(server.url, user);
    const answers = await Promise.all(Array.from({ length: 30 }, () => good.get(PATH)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    const wrong = new ApiClient(server.url, { ...user, password: 'not-the-password' });
    const refused = await Promise.all(Array.from({ length: 10 }, () => wrong.get(PATH)));
    expect(refused.map((answer) => answer.status)).toEqual(Array(10).fill(401));
    expect((await wrong.get(PATH)).status).toBe(401);
  });
});
