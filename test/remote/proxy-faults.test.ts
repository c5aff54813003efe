import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers } from '../http/serve-process';
import { FaultProxy } from './fault-proxy';
import {
  openLocal,
  PARIS,
  remoteTransactionCount,
  REMOTE_PASSWORD,
  startRemote,
  type Client,
  type LocalWorkstation,
  type Reply,
} from './remote-world';

/**
 * Network faults between the workstation and a real remote, made by a TCP proxy of our own:
 * each gives its documented fault within the profile's timeout, never hangs, never sends a
 * write twice (the remote's transactions are counted), and the next request works again.
 */
const RESPONSE_MS = 1_500;
let local: LocalWorkstation;
let direct: Client;
let live: Client;
let faults: FaultProxy;
let serial = 0;

beforeAll(async () => {
  const started = await startRemote('20.1.1');
  direct = started.direct;
  faults = new FaultProxy(started.remote.port);
  await faults.start();
  local = await openLocal();
  await local.addProfile({
    name: 'Flaky',
    base_url: `http://127.0.0.1:${faults.port}`,
    username: 'admin',
    password: REMOTE_PASSWORD,
    timeouts: { connect_ms: 1_000, response_ms: RESPONSE_MS, idle_ms: 1_000 },
  });
  live = local.live('Flaky');
}, 60_000);
afterAll(async () => {
  await faults?.stop();
  await local?.close();
  await cleanupServers();
});

const LIST = `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=20`;
const write = (): Promise<Reply> =>
  live.call('POST', `/api/data/Countries/?hierarchy=sys`, {
    json: { data: { country_name: `Faultland ${(serial += 1)}`, iso_code: `Q${String.fromCharCode(64 + serial)}` } },
  });

async function recovers(): Promise<void> {
  faults.mode = { kind: 'pass' };
  const again = await live.get(LIST);
  expect(again.status).toBe(200);
  expect(again.body.resources.length).toBe(20);
}

async function remoteSettled(): Promise<number> {
  // The remote may still be running a write whose answer was spoiled: wait for its count to stop moving.
  let last = -1;
  for (let i = 0; i < 40; i += 1) {
    const count = await remoteTransactionCount(direct);
    if (count === last) return count;
    last = count;
    await new Promise((done) => setTimeout(done, 100));
  }
  return last;
}

describe('faults between the workstation and the remote', () => {
  it('works through the fault proxy when nothing is spoiled', async () => {
    await recovers();
  });

  it('answers remote-timeout when the remote is slower than the response timeout, and sends the write once', async () => {
    faults.mode = { kind: 'delay', ms: RESPONSE_MS + 1_500 };
    const read = await live.get(LIST);
    expect(read.body).toMatchObject({ success: false, http_code: 504, code: 'remote-timeout' });
    expect(read.ms).toBeLessThan(RESPONSE_MS + 1_000);
    const before = await remoteSettled();
    const written = await write();
    expect(written.body.code).toBe('remote-timeout');
    expect(written.body.message).toMatch(/may or may not have been made/);
    expect(written.ms).toBeLessThan(RESPONSE_MS + 1_000);
    await recovers();
    expect(await remoteSettled()).toBe(before + 1);
  });

  it('answers remote-timeout when an answer stalls mid-body', async () => {
    faults.mode = { kind: 'stall', afterBytes: 300 };
    const read = await live.get(LIST);
    expect(read.body).toMatchObject({ http_code: 504, code: 'remote-timeout' });
    expect(read.ms).toBeLessThan(RESPONSE_MS + 1_000);
    const before = await remoteSettled();
    expect((await write()).body.code).toBe('remote-timeout');
    await recovers();
    expect(await remoteSettled()).toBe(before + 1);
  });

  it('answers remote-timeout for a slow drip, within the response timeout', async () => {
    faults.mode = { kind: 'drip', everyMs: 20 };
    const read = await live.get(LIST);
    expect(read.body).toMatchObject({ http_code: 504, code: 'remote-timeout' });
    expect(read.ms).toBeLessThan(RESPONSE_MS + 1_000);
    await recovers();
  });

  it('answers remote-unreachable for a connection reset mid-answer, retrying a GET but never a write', async () => {
    faults.mode = { kind: 'reset', afterBytes: 200 };
    const acceptedBefore = faults.accepted;
    const read = await live.get(LIST);
    expect(read.body).toMatchObject({ http_code: 502, code: 'remote-unreachable' });
    // The GET was sent again on fresh connections (a reset one is never reused).
    expect(faults.accepted - acceptedBefore).toBeGreaterThanOrEqual(2);
    const before = await remoteSettled();
    const written = await write();
    expect(written.body).toMatchObject({ http_code: 502, code: 'remote-unreachable' });
    expect(written.body.message).toMatch(/may or may not have been made/);
    await recovers();
    expect(await remoteSettled()).toBe(before + 1);
  });

  it('answers remote-unreachable at once when the port refuses connections, sends nothing, and works again once it is back', async () => {
    await faults.refuse();
    const before = await remoteSettled();
    const read = await live.get(LIST);
    expect(read.body).toMatchObject({ http_code: 502, code: 'remote-unreachable' });
    expect(read.body.message).toMatch(/refused the connection/);
    expect(read.ms).toBeLessThan(RESPONSE_MS);
    expect((await write()).body.code).toBe('remote-unreachable');
    await faults.start();
    await recovers();
    expect(await remoteSettled()).toBe(before);
  });

  it('reports a slow remote and a closed port in Test connection, in words to act on', async () => {
    faults.mode = { kind: 'delay', ms: RESPONSE_MS + 1_000 };
    const slow = await local.admin.call('POST', '/workstation/remote-profiles/Flaky/test/');
    expect(slow.body).toMatchObject({ success: false, verdict: 'timeout', round_trip_ms: null });
    expect(slow.body.message).toMatch(/did not answer within .* raise the profile's timeouts/);
    faults.mode = { kind: 'pass' };
    await faults.refuse();
    const closed = await local.admin.call('POST', '/workstation/remote-profiles/Flaky/test/');
    expect(closed.body).toMatchObject({ success: false, verdict: 'unreachable', reachable: false });
    expect(closed.body.message).toMatch(/ECONNREFUSED.*check the base URL and that the deployment is running/);
    await faults.start();
    const fine = await local.admin.call('POST', '/workstation/remote-profiles/Flaky/test/');
    expect(fine.body).toMatchObject({ success: true, verdict: 'ok', reachable: true, tls: { used: false }, credentials: 'accepted' });
    await recovers();
  });

  it('answers faults with the local session headers, never a 401 that would sign the user out', async () => {
    faults.mode = { kind: 'delay', ms: RESPONSE_MS + 500 };
    const read = await live.get(LIST);
    expect(read.status).toBe(504);
    expect(read.headers.get('x-csrftoken')).toEqual(expect.any(String));
    expect(read.headers.get('www-authenticate')).toBeNull();
    await recovers();
  });
});
