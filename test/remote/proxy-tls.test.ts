import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers } from '../http/serve-process';
import { openLocal, PARIS, REMOTE_PASSWORD, startRemote, type LocalWorkstation } from './remote-world';
import { makePki, startTlsTerminator, type TestPki } from './tls-terminator';

/** A remote behind a certificate of a private CA made for this run: refused without the profile's CA, accepted with it. */
let local: LocalWorkstation;
let pki: TestPki;
let tls: { port: number; close(): Promise<void> };

beforeAll(async () => {
  const started = await startRemote('20.1.1');
  pki = makePki();
  tls = await startTlsTerminator(pki, started.remote.port);
  local = await openLocal();
}, 60_000);
afterAll(async () => {
  await tls?.close();
  await local?.close();
  await cleanupServers();
});

const LIST = `/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=3`;

describe('TLS to a remote with a private CA', () => {
  it('refuses the connection without the CA, says to paste it, and works once the profile holds it', async () => {
    await local.addProfile({ name: 'Private', base_url: `https://127.0.0.1:${tls.port}`, username: 'admin', password: REMOTE_PASSWORD });
    const live = local.live('Private');
    const refused = await live.get(LIST);
    expect(refused.body).toMatchObject({ success: false, http_code: 502, code: 'remote-tls' });
    expect(refused.body.message).toMatch(/paste that CA's certificate/);
    const tested = await local.admin.call('POST', '/workstation/remote-profiles/Private/test/');
    expect(tested.body).toMatchObject({ success: false, verdict: 'tls', reachable: true, tls: { used: true, ok: false } });
    expect(tested.body.tls.problem).toMatch(/SELF_SIGNED|UNABLE_TO/);

    // Another CA drops the password (a secret follows its address and TLS settings): its owner enters it again with the CA.
    const caOnly = await local.admin.call('PUT', '/workstation/remote-profiles/Private/', { json: { ca_pem: pki.caPem } });
    expect(caOnly.body.profile.password_stored).toBe(false);
    const changed = await local.admin.call('PUT', '/workstation/remote-profiles/Private/', { json: { password: REMOTE_PASSWORD } });
    expect(changed.status).toBe(200);
    expect(changed.body.profile.password_stored).toBe(true);
    const accepted = await live.get(LIST);
    expect(accepted.status).toBe(200);
    expect(accepted.body.resources).toHaveLength(3);
    const ok = await local.admin.call('POST', '/workstation/remote-profiles/Private/test/');
    expect(ok.body).toMatchObject({ success: true, verdict: 'ok', tls: { used: true, ok: true, problem: null }, credentials: 'accepted' });
    expect(ok.body.round_trip_ms).toEqual(expect.any(Number));
  });

  it("refuses a certificate signed by another CA than the profile's, and one for another host name", async () => {
    const other = makePki();
    await local.addProfile({
      name: 'WrongCa',
      base_url: `https://127.0.0.1:${tls.port}`,
      username: 'admin',
      password: REMOTE_PASSWORD,
      ca_pem: other.caPem,
    });
    const wrongCa = await local.live('WrongCa').get(LIST);
    expect(wrongCa.body.code).toBe('remote-tls');
    expect(wrongCa.body.message).toMatch(/not signed by the CA certificate in profile WrongCa/);
    await local.addProfile({
      name: 'WrongName',
      base_url: `https://localhost:${tls.port}`,
      username: 'admin',
      password: REMOTE_PASSWORD,
      ca_pem: pki.caPem,
    });
    const wrongName = await local.live('WrongName').get(LIST);
    expect(wrongName.body.code).toBe('remote-tls');
    expect(wrongName.body.message).toMatch(/another host name/);
  });
});
