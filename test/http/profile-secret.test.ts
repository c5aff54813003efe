import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../../main/service';
import type { ConnectionTestResult, RemoteProfileAnswer } from '../../main/service/contract/workstation-api';
import { ADMIN, ApiClient, type Credentials } from './api-client';
import { cleanupServers, startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from './serve-process';

/**
 * Issue 30, finding 5, over real HTTP against server mode: a second admin of the same node, never
 * told a profile's password, pointed the profile at a listener of theirs and pressed Test
 * connection: the listener received the user name and password in clear. A secret follows its
 * address: another URL, user name or CA drops it (the owner enters it again, and only the owner
 * may), and nothing is ever sent to the new address with the old password, whether the change came
 * through this server or through the CLI in another process beside it.
 */
const SECRET = 'owner-only-remote-secret-7f3a';
const OTHER: Credentials = { username: 'second.admin', password: 'second-admin-pw-1' };

/** A listener on 127.0.0.1 that writes down every request it receives, headers and body, and answers 401. */
class Listener {
  readonly heard: string[] = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.heard.push(`${request.method} ${request.url}\n${JSON.stringify(request.headers)}\n${Buffer.concat(chunks).toString('utf8')}`);
        response.writeHead(401, { 'content-type': 'application/json' }).end('{"success": false}');
      });
    });
    await new Promise<void>((done) => this.server?.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Whether anything it heard carries the secret, in clear or as Basic credentials. */
  sawSecret(): boolean {
    const basic = Buffer.from(`remote.user:${SECRET}`).toString('base64');
    return this.heard.some((text) => text.includes(SECRET) || text.includes(basic));
  }

  close(): Promise<void> {
    return new Promise((done) => (this.server ? this.server.close(() => done()) : done()));
  }
}

let server: ServeProcess;
let dataDir: string;
let owner: ApiClient;
let second: ApiClient;
const genuine = new Listener();
const thief = new Listener();

beforeAll(async () => {
  await genuine.start();
  await thief.start();
  dataDir = tempDataDir();
  server = await startServe({ dataDir });
  owner = new ApiClient(server.url, ADMIN);
  second = new ApiClient(server.url, OTHER);
  const made = await owner.post('/api/data/User/?hierarchy=sys', { data: { ...OTHER, role: 'admin' } });
  expect(made.status, made.text).toBe(200);
}, 60_000);
afterAll(async () => {
  await cleanupServers();
  await genuine.close();
  await thief.close();
});

async function ownerProfile(name: string, authMode: 'basic' | 'session'): Promise<string> {
  const made = await owner.post<RemoteProfileAnswer>('/workstation/remote-profiles/', {
    name,
    base_url: genuine.url,
    username: 'remote.user',
    password: SECRET,
    auth_mode: authMode,
  });
  expect(made.status, made.text).toBe(200);
  expect(made.body.profile.password_stored).toBe(true);
  return made.body.profile.id;
}

const testAs = async (who: ApiClient, id: string): Promise<ConnectionTestResult> => {
  const reply = await who.post<ConnectionTestResult>(`/workstation/remote-profiles/${id}/test/`, {});
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
};

describe("a profile's password follows its address", () => {
  it('is dropped when another admin points the profile elsewhere: Test connection sends the listener nothing of it', async () => {
    for (const mode of ['basic', 'session'] as const) {
      const id = await ownerProfile(`Stolen-${mode}`, mode);
      const moved = await second.put<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`, { base_url: thief.url });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.profile.password_stored).toBe(false);
      const tested = await testAs(second, id);
      expect(tested.verdict).toBe('no-password');
      expect(thief.sawSecret()).toBe(false);
      // The owner sees it too: the profile asks for its password again.
      expect((await owner.get<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`)).body.profile.password_stored).toBe(false);
    }
  });

  it('is dropped when the user name or the CA changes, and only the owner may enter it again', async () => {
    const id = await ownerProfile('Renamed', 'basic');
    const renamed = await second.put<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`, { username: 'someone.else' });
    expect(renamed.body.profile.password_stored).toBe(false);
    const typed = await second.put<{ code: string; message: string }>(`/workstation/remote-profiles/${id}/`, { password: 'guess' });
    expect(typed.status, typed.text).toBe(403);
    expect(typed.body.message).toContain('only admin');
    const again = await owner.put<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`, { password: SECRET });
    expect(again.status, again.text).toBe(200);
    expect(again.body.profile.password_stored).toBe(true);
    // A change that moves nothing (a timeout) keeps it.
    const timeouts = await second.put<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`, { timeouts: { connect_ms: 2000 } });
    expect(timeouts.body.profile.password_stored).toBe(true);
    const ca = await owner.put<RemoteProfileAnswer>(`/workstation/remote-profiles/${id}/`, { ca_pem: null, base_url: `${genuine.url}/` });
    expect(ca.body.profile.password_stored).toBe(true);
  });

  it('is never sent to an address the CLI set from another process beside the running server', async () => {
    const id = await ownerProfile('Beside', 'basic');
    // The CLI's way: its own service on the same data folder, the route as the local admin.
    const cli = await createService({ dataDir, adminPassword: TEST_PASSWORD, log: () => undefined });
    try {
      const admin = cli.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
      const answer = await cli.handleAs(
        { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid },
        {
          method: 'PUT',
          url: `/workstation/remote-profiles/${id}/`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ base_url: thief.url }),
        },
      );
      expect(answer.status).toBe(200);
    } finally {
      cli.close();
    }
    // The server sees the change within its check interval; its vault still held the password.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const tested = await testAs(owner, id);
    expect(tested.verdict).toBe('no-password');
    const live = await owner.get(`/api/data/Countries/?hierarchy=sys`, { headers: { 'x-workstation-workspace': 'Beside' } });
    expect(live.status).toBeGreaterThanOrEqual(400);
    expect(thief.sawSecret()).toBe(false);
  });
});
