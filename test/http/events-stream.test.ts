import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEvent } from '../../main/service/contract/service-events';
import { ADMIN, ApiClient, basicAuth, type Credentials, type Fault, type TransactionRef } from './api-client';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/** `GET /workstation/events/`: Server-Sent Events over a real server, each user seeing only its own part of the tree. */
const ACME = 'sys.hcs.Telco.Acme';
const PARIS = `${ACME}.Paris`;
const LONDON = `${ACME}.London`;
const EVENTS = '/workstation/events/';
const LONDONER: Credentials = { username: 'london.operator', password: 'london-operator-1' };

let server: ServeProcess;
let api: ApiClient;

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir(), seed: 'demo' });
  api = new ApiClient(server.url);
  const created = await api.post(`/api/data/User/?hierarchy=${encodeURIComponent(LONDON)}`, { data: { ...LONDONER, role: 'operator' } });
  expect(created.status, created.text).toBe(200);
}, 60_000);
afterAll(cleanupServers);

/** One open stream: the events parsed as they arrive, and the raw text (comments included). */
interface Stream {
  status: number;
  headers: Headers;
  events: ServiceEvent[];
  text(): string;
  waitFor(predicate: (event: ServiceEvent) => boolean, timeoutMs?: number): Promise<ServiceEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

async function openStream(credentials: Credentials, headers: Record<string, string> = {}): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(new URL(EVENTS, server.url), {
    headers: { authorization: basicAuth(credentials), accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: ServiceEvent[] = [];
  const waiters = new Set<() => void>();
  let raw = '';
  let pending = '';
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!reader) return;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const chunk = decoder.decode(value, { stream: true });
        raw += chunk;
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6));
          if (data.length > 0) events.push(JSON.parse(data.join('\n')) as ServiceEvent);
        }
        for (const wake of [...waiters]) wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    text: () => raw,
    ended,
    close: () => abort.abort(),
    waitFor(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = events.find(predicate);
          if (!found) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no such event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
  };
}

/** Adds a node below `site` and answers its transaction id (the write waits for the transaction). */
async function addNode(site: string, name: string): Promise<string> {
  const answer = await api.post<TransactionRef>(`/api/data/HierarchyNode/?hierarchy=${encodeURIComponent(site)}`, {
    data: { name, node_type: 'Intermediate' },
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.transaction_id;
}

const finished = (id: string) => (event: ServiceEvent) =>
  event.type === 'transaction' && event.transaction_id === id && event.status === 'Success';

describe('the event stream over HTTP', () => {
  it('sends an admin the transaction of a write as it happens, as text/event-stream', async () => {
    const stream = await openStream(ADMIN);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers.get('x-csrftoken')).toEqual(expect.any(String));
      const id = await addNode(PARIS, 'Events Floor 1');
      const event = await stream.waitFor(finished(id));
      expect(event).toMatchObject({ type: 'transaction', parent_id: null, model_type: 'data/HierarchyNode' });
      // Queued and In Progress came first, each one SSE message.
      expect(stream.events.filter((seen) => seen.type === 'transaction' && seen.transaction_id === id).length).toBeGreaterThanOrEqual(2);
      expect(stream.text()).toMatch(/^retry: \d+\n/);
    } finally {
      stream.close();
    }
  });

  it("shows a London operator London's transactions, never Paris's", async () => {
    const london = await openStream(LONDONER);
    const admin = await openStream(ADMIN);
    try {
      expect(london.status).toBe(200);
      const paris = await addNode(PARIS, 'Events Floor 2');
      await admin.waitFor(finished(paris));
      const inLondon = await addNode(LONDON, 'Events Floor 2');
      await london.waitFor(finished(inLondon));
      // The Paris write finished before the London one started: had it been sent, it would be here.
      expect(london.events.some((event) => 'transaction_id' in event && event.transaction_id === paris)).toBe(false);
      expect(london.events.every((event) => event.type !== 'transaction' || event.transaction_id === inLondon)).toBe(true);
    } finally {
      london.close();
      admin.close();
    }
  });

  it('refuses a request without credentials with 401 in the fault shape, and no challenge for XMLHttpRequest', async () => {
    const plain = await api.get<Fault>(EVENTS, { auth: false });
    expect(plain.status).toBe(401);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('www-authenticate')).toBe('Basic realm="workstation"');
    expect(plain.body).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
    const page = await api.get<Fault>(EVENTS, { auth: false, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(page.status).toBe(401);
    expect(page.headers.has('www-authenticate')).toBe(false);
    // What a page's EventSource sends: no X-Requested-With (it cannot), but its Accept.
    const source = await api.get<Fault>(EVENTS, { auth: false, headers: { accept: 'text/event-stream' } });
    expect(source.status).toBe(401);
    expect(source.headers.has('www-authenticate')).toBe(false);
    expect(source.body).toMatchObject({ success: false, http_code: 401, code: 'authentication-required' });
    const wrong = await api.get<Fault>(EVENTS, { auth: { username: 'admin', password: 'not-the-password' } });
    expect(wrong.status).toBe(401);
  });

  it('takes a session cookie as every request does, and GET only', async () => {
    const login = await api.post('/noninteractivelogin/', { username: LONDONER.username, password: LONDONER.password }, { auth: false });
    expect(login.status, login.text).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const abort = new AbortController();
    const stream = await fetch(new URL(EVENTS, server.url), { headers: { cookie }, signal: abort.signal });
    expect(stream.status).toBe(200);
    abort.abort();
    const post = await api.post<Fault>(EVENTS, {});
    expect(post.status).toBe(405);
    expect(post.body).toMatchObject({ success: false, http_code: 405, code: 'method-not-allowed' });
  });

  it('holds at most 8 streams per user (then 429), and frees a place when a client goes', async () => {
    const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(LONDONER)));
    try {
      expect(streams.map((stream) => stream.status)).toEqual(Array(8).fill(200));
      const extra = await api.get<Fault>(EVENTS, { auth: LONDONER });
      expect(extra.status).toBe(429);
      expect(extra.body).toMatchObject({ success: false, http_code: 429, code: 'too-many-streams' });
      // Another user is not held back by this one's streams.
      const admin = await openStream(ADMIN);
      expect(admin.status).toBe(200);
      admin.close();
      streams.pop()?.close();
      await expect
        .poll(async () => await openStream(LONDONER).then((again) => (again.close(), again.status)), { timeout: 5_000 })
        .toBe(200);
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('ends every stream cleanly when the server stops', async () => {
    const stream = await openStream(ADMIN);
    expect(stream.status).toBe(200);
    const exit = await server.stop('SIGTERM');
    expect(exit.code).toBe(0);
    await stream.ended;
    expect(stream.text()).toContain(': connected');
  });
});
