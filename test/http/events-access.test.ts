import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../../main/service/contract/service-events';
import { ADMIN, ApiClient, basicAuth, type Credentials } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/**
 * Issue 30, findings 9 and 10, over real HTTP against server mode: `sync` events (a profile's name
 * and id, model counts, remote transaction ids) went to every admin, including those to whom the
 * profile answers 404; and an event stream opened with a session went on delivering after that
 * session was signed out of. Events now go only to those who may read their subject, and a stream
 * ends when the session that opened it ends.
 */
const PARIS = 'sys.hcs.Telco.Acme.Paris';
const SITE_ADMIN: Credentials = { username: 'paris.admin', password: 'paris-admin-pw-1' };
const PEER_ADMIN: Credentials = { username: 'peer.admin', password: 'peer-admin-pw-1' };

let server: ServeProcess;
let owner: ApiClient;

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir(), seed: 'demo' });
  owner = new ApiClient(server.url, ADMIN);
  for (const [who, at] of [
    [SITE_ADMIN, PARIS],
    [PEER_ADMIN, 'sys'],
  ] as const) {
    const made = await owner.post(`/api/data/User/?hierarchy=${encodeURIComponent(at)}`, { data: { ...who, role: 'admin' } });
    expect(made.status, made.text).toBe(200);
  }
  // The owner's profile, at sys: the peer admin at sys may use it, the Paris admin gets 404 for it.
  const profile = await owner.post('/workstation/remote-profiles/', {
    name: 'OwnersRemote',
    base_url: 'http://127.0.0.1:9',
    username: 'remote.user',
  });
  expect(profile.status, profile.text).toBe(200);
  expect((await new ApiClient(server.url, SITE_ADMIN).get('/workstation/remote-profiles/OwnersRemote/')).status).toBe(404);
}, 60_000);
afterAll(cleanupServers);

interface Stream {
  events: ServiceEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

async function openStream(headers: Record<string, string>): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(new URL('/workstation/events/', server.url), {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const events: ServiceEvent[] = [];
  let pending = '';
  let over = false;
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) return;
        pending += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const data = pending
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6));
          pending = pending.slice(end + 2);
          if (data.length > 0) events.push(JSON.parse(data.join('\n')) as ServiceEvent);
        }
      }
    } catch {
      // Aborted by close().
    } finally {
      over = true;
    }
  })();
  return { events, ended, isEnded: () => over, close: () => abort.abort() };
}

/** A pull of the owner's profile: it fails at once (nothing listens there), and says so in `sync` events. */
async function pullOwnersProfile(): Promise<void> {
  const pulled = await owner.post('/workstation/sync/OwnersRemote/pull/', {});
  expect(pulled.status).toBeGreaterThanOrEqual(400);
}

const syncEventsOf = (stream: Stream): ServiceEvent[] => stream.events.filter((event) => event.type === 'sync');
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

describe('who receives which events', () => {
  it("sends a profile's sync events to those it answers to, never to an admin it answers 404", async () => {
    const site = await openStream({ authorization: basicAuth(SITE_ADMIN) });
    const peer = await openStream({ authorization: basicAuth(PEER_ADMIN) });
    await pullOwnersProfile();
    await settle();
    expect(syncEventsOf(peer).length).toBeGreaterThan(0);
    expect(syncEventsOf(peer)[0]).toMatchObject({ profile: 'OwnersRemote', action: 'pull' });
    expect(syncEventsOf(site)).toEqual([]);
    site.close();
    peer.close();
  });

  it('ends a stream opened with a session when that session is signed out of, and sends it nothing after', async () => {
    const login = await fetch(new URL('/noninteractivelogin/', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(PEER_ADMIN),
    });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
    const cookie = cookies.join('; ');
    const token = login.headers.get('x-csrftoken') ?? '';
    const stream = await openStream({ cookie });
    const basic = await openStream({ authorization: basicAuth(PEER_ADMIN) });
    const logout = await fetch(new URL('/logout/', server.url), { method: 'POST', headers: { cookie, 'x-csrftoken': token } });
    expect(logout.status).toBeLessThan(300);
    await pullOwnersProfile();
    await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
    expect(stream.isEnded()).toBe(true);
    expect(syncEventsOf(stream)).toEqual([]);
    // The same user's stream opened with its password goes on: only the session ended.
    await settle();
    expect(basic.isEnded()).toBe(false);
    expect(syncEventsOf(basic).length).toBeGreaterThan(0);
    basic.close();
  });
});
