import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers } from '../http/serve-process';
import {
  basic,
  Client,
  openLocal,
  PARIS,
  REMOTE_PASSWORD,
  remoteTransactionCount,
  startRemote,
  type LocalWorkstation,
  type Reply,
} from './remote-world';

/**
 * What a live workspace must never do: show or store a remote password, let a request choose
 * where it goes, lend an admin's profile to a readonly user, or sign the user out when the
 * remote's session ends.
 */
interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  headers: IncomingMessage['headers'];
}

/** A stand-in remote that records every request it gets and answers like a deployment would. */
async function recordingRemote(): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host, headers: req.headers });
    req.resume();
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'set-cookie': ['sessionid=recorded; HttpOnly; Path=/', 'csrftoken=rec-token; HttpOnly; Path=/'],
      'x-csrftoken': 'rec-token',
    };
    res.writeHead(200, headers).end(JSON.stringify({ success: true, path: req.url }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return { server, port: (server.address() as { port: number }).port, seen };
}

/** A request written byte for byte, so no client library tidies its target or Host. */
function rawRequest(port: number, lines: string[]): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      if (/\r\n\r\n/.test(text)) {
        const length = /content-length: (\d+)/i.exec(text);
        if (!length || text.length >= text.indexOf('\r\n\r\n') + 4 + Number(length[1])) socket.end();
      }
    });
    socket.on('end', () => done(text)).on('error', fail);
    setTimeout(() => socket.destroy(), 3_000);
  });
}

const SECRET = 'Zq7-remote-secret-VERY-distinct';
let local: LocalWorkstation;
let recorder: Awaited<ReturnType<typeof recordingRemote>>;
let decoy: Awaited<ReturnType<typeof recordingRemote>>;
let real: Awaited<ReturnType<typeof startRemote>>;
const answers: Reply[] = [];

beforeAll(async () => {
  [recorder, decoy, real] = await Promise.all([recordingRemote(), recordingRemote(), startRemote('20.1.1')]);
  local = await openLocal();
  await local.addProfile({
    name: 'Recorder',
    base_url: `http://127.0.0.1:${recorder.port}/deploy`,
    username: 'engineer',
    password: SECRET,
  });
  await local.addProfile({ name: 'Real', base_url: real.remote.url, username: 'admin', password: REMOTE_PASSWORD });
  await local.addProfile({ name: 'WrongPassword', base_url: real.remote.url, username: 'admin', password: `${SECRET}-wrong` });
  await local.addProfile({
    name: 'BasicReal',
    base_url: real.remote.url,
    username: 'admin',
    password: REMOTE_PASSWORD,
    auth_mode: 'basic',
  });
  const readonly = await local.admin.call('POST', '/api/data/User/?hierarchy=sys', {
    json: { data: { username: 'viewer', role: 'readonly', password: 'viewer-password-1' } },
  });
  if (readonly.status !== 200) throw new Error(readonly.text);
}, 60_000);
afterAll(async () => {
  recorder?.server.close();
  decoy?.server.close();
  await local?.close();
  await cleanupServers();
});

const record = async (reply: Promise<Reply>): Promise<Reply> => {
  const answer = await reply;
  answers.push(answer);
  return answer;
};

describe('a live workspace cannot be steered to another host', () => {
  it("sends only the request's path, under the profile's base path, with the profile's Host", async () => {
    const live = local.live('Recorder');
    const ok = await record(
      live.get('/api/data/Countries/?hierarchy=sys', {
        headers: { host: `127.0.0.1:${decoy.port}`, 'x-forwarded-host': `127.0.0.1:${decoy.port}` },
      }),
    );
    expect(ok.status).toBe(200);
    const last = recorder.seen[recorder.seen.length - 1];
    expect(last.url).toBe('/deploy/api/data/Countries/?hierarchy=sys');
    expect(last.host).toBe(`127.0.0.1:${recorder.port}`);
    expect(last.headers['x-forwarded-host']).toBeUndefined();
    // The local credentials stay local: the remote sees only the profile's session.
    expect(last.headers.authorization).toBeUndefined();
    expect(recorder.seen.every((s) => s.headers.authorization === undefined)).toBe(true);
    expect(last.headers.cookie).toContain('sessionid=recorded');
    expect(recorder.seen.some((s) => s.url === '/deploy/noninteractivelogin/' && s.method === 'POST')).toBe(true);
  });

  it('refuses encoded slashes and dots, backslashes and empty segments, and forwards nothing of them', async () => {
    const before = recorder.seen.length;
    const workspace = 'x-workstation-workspace: Recorder';
    const auth = `authorization: ${basic('admin', 'local-admin-password-1')}`;
    for (const target of ['/api/..%2f..%2fadmin/', '/api/data%5c..%5cx/', '/api//127.0.0.1/x/', '/api/data/Countries/%2F%2Fevil/']) {
      const text = await rawRequest(local.host.port, [
        `GET ${target} HTTP/1.1`,
        `host: 127.0.0.1:${local.host.port}`,
        workspace,
        auth,
        'connection: close',
      ]);
      expect(text, target).toMatch(/^HTTP\/1\.1 400/);
      expect(text, target).toContain('"code":"bad-parameter"');
    }
    // Dot segments are resolved before the workspace is looked at: out of /api/, nothing is forwarded.
    for (const target of ['/api/data/../../deploy/x', '/api/%2e%2e/%2e%2e/secret']) {
      const climbed = await rawRequest(local.host.port, [
        `GET ${target} HTTP/1.1`,
        `host: 127.0.0.1:${local.host.port}`,
        workspace,
        auth,
        'connection: close',
      ]);
      expect(climbed, target).toMatch(/^HTTP\/1\.1 404/);
    }
    const absolute = await rawRequest(local.host.port, [
      `GET http://127.0.0.1:${decoy.port}/api/data/Countries/?hierarchy=sys HTTP/1.1`,
      `host: 127.0.0.1:${decoy.port}`,
      workspace,
      auth,
      'connection: close',
    ]);
    expect(absolute).toMatch(/^HTTP\/1\.1 404/);
    // In-process doors (IPC) hand the path over as given: a scheme-relative one goes nowhere either.
    const handled = await local.service.handle({
      method: 'GET',
      url: `//127.0.0.1:${decoy.port}/api/data/Countries/`,
      headers: { authorization: basic('admin', 'local-admin-password-1'), 'x-workstation-workspace': 'Recorder' },
    });
    expect(handled.status).toBe(400);
    expect(recorder.seen.length).toBe(before);
    expect(decoy.seen).toEqual([]);
  });
});

describe('passwords of remote profiles', () => {
  it('signs in again when the remote ends its session, without signing the user out or sending a write twice', async () => {
    const live = local.live('Real');
    expect((await record(live.get(`/api/data/Countries/?hierarchy=sys`))).status).toBe(200);
    // Changing the remote user ends every session of it on the remote, as an expiry would.
    const admin = await real.direct.get('/api/data/User/?hierarchy=sys&filter_field=username&filter_condition=equals&filter_text=admin');
    const pkid = admin.body.resources[0].meta.pkid as string;
    expect((await real.direct.call('PUT', `/api/data/User/${pkid}/`, { json: { data: { email: 'ops@example.test' } } })).status).toBe(200);
    expect((await real.direct.call('PUT', `/api/data/User/${pkid}/`, { json: { data: { email: 'ops2@example.test' } } })).status).toBe(200);
    const before = await remoteTransactionCount(real.direct);
    const written = await record(
      live.call('POST', '/api/data/Countries/?hierarchy=sys', { json: { data: { country_name: 'Relogland', iso_code: 'RQ' } } }),
    );
    expect(written.status).toBe(200);
    expect(await remoteTransactionCount(real.direct)).toBe(before + 1);
    expect(
      (await record(live.get('/api/data/Countries/?hierarchy=sys&filter_field=iso_code&filter_condition=equals&filter_text=RQ'))).body
        .pagination.total,
    ).toBe(1);
    // Eight requests refused at once by an ended session all get through on one new sign-in.
    expect((await real.direct.call('PUT', `/api/data/User/${pkid}/`, { json: { data: { email: 'ops3@example.test' } } })).status).toBe(200);
    const burst = await Promise.all(Array.from({ length: 8 }, () => live.get('/api/data/Countries/?hierarchy=sys&limit=1')));
    expect(burst.map((answer) => answer.status)).toEqual(Array(8).fill(200));
  });

  it('works with Basic sign-in too', async () => {
    const viaBasic = await record(
      local.live('BasicReal').get(`/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=2`),
    );
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.body.resources).toHaveLength(2);
  });

  it('answers a wrong remote password with remote-auth (not a 401) and a test that says so', async () => {
    const refused = await record(local.live('WrongPassword').get('/api/data/Countries/?hierarchy=sys'));
    expect(refused.body).toMatchObject({ success: false, http_code: 502, code: 'remote-auth' });
    expect(refused.body.message).toMatch(/did not accept the user name and password/);
    const tested = await record(local.admin.call('POST', '/workstation/remote-profiles/WrongPassword/test/'));
    expect(tested.body).toMatchObject({ success: false, verdict: 'wrong-credentials', reachable: true, credentials: 'refused' });
    const good = await record(local.admin.call('POST', '/workstation/remote-profiles/Real/test/'));
    expect(good.body).toMatchObject({ success: true, verdict: 'ok', credentials: 'accepted', release: { detected: 'before-21.1' } });
  });

  it("does not lend an admin's profile to a readonly local user: refused locally, nothing reaches the remote", async () => {
    const before = recorder.seen.length;
    const viewer = new Client(local.host.url, basic('viewer', 'viewer-password-1'), { 'x-workstation-workspace': 'Recorder' });
    const refused = await record(viewer.get('/api/data/Countries/?hierarchy=sys'));
    expect(refused.body).toMatchObject({ http_code: 403, code: 'permission-denied' });
    const written = await record(
      viewer.call('POST', '/api/data/Countries/?hierarchy=sys', { json: { data: { country_name: 'Borrowed', iso_code: 'BQ' } } }),
    );
    expect(written.status).toBe(403);
    expect(recorder.seen.length).toBe(before);
  });

  it('never shows a password: not in answers, errors, logs, nor the store file', async () => {
    const listed = await record(local.admin.get('/workstation/remote-profiles/'));
    expect(listed.body.profiles.length).toBeGreaterThanOrEqual(4);
    await record(local.admin.call('PUT', '/workstation/remote-profiles/Recorder/', { json: { password: SECRET, base_url: 'not a url' } }));
    const encoded = Buffer.from(`engineer:${SECRET}`).toString('base64');
    for (const answer of answers) {
      expect(answer.text).not.toContain(SECRET);
      expect(answer.text).not.toContain(encoded);
      for (const [, value] of answer.headers) expect(value).not.toContain(SECRET);
    }
    expect(local.logs.join('\n')).not.toContain(SECRET);
    local.service.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const folder = join(local.dataDir, 'workspaces');
    for (const file of readdirSync(folder)) {
      const text = readFileSync(join(folder, file)).toString('latin1');
      expect(text, file).not.toContain(SECRET);
      expect(text, file).not.toContain(encoded);
    }
  });
});
