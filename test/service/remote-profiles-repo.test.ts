import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../main/service/store/db';
import { RemoteProfilesRepo, type RemoteProfileRow } from '../../main/service/store/remote-profiles-repo';

/**
 * The profiles are kept in memory (every live request looks one up); a running server must
 * still see at once what it wrote itself, and soon what another process (the CLI) wrote to the
 * same file. Two real connections to one real SQLite file.
 */
const opened: Db[] = [];
let dir = '';
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  rmSync(dir, { recursive: true, force: true });
});

function twoConnections(): { server: RemoteProfilesRepo; cli: RemoteProfilesRepo } {
  dir = mkdtempSync(join(tmpdir(), 'ws-profiles-repo-'));
  const file = join(dir, 'Local.sqlite');
  const a = openDatabase(file);
  const b = openDatabase(file);
  opened.push(a, b);
  return { server: new RemoteProfilesRepo(a), cli: new RemoteProfilesRepo(b) };
}

const row = (pkid: string, name: string): RemoteProfileRow => ({
  pkid,
  name,
  base_url: 'https://voss.example.test',
  username: 'provisioner',
  auth_mode: 'session',
  ca_pem: null,
  connect_timeout_ms: 5000,
  response_timeout_ms: 60000,
  idle_timeout_ms: 30000,
  release: null,
  home_hierarchy: null,
  detected_release: null,
  detected_at: null,
  owner_pkid: 'o'.repeat(24),
  hierarchy_pkid: 'h'.repeat(24),
  created_at: '2026-11-24T00:00:00.000000',
  updated_at: '2026-11-24T00:00:00.000000',
});

const wait = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

describe('remote profiles kept in memory', () => {
  it('finds by id or by name in any ASCII case, and sees its own writes at once', () => {
    const { server } = twoConnections();
    expect(server.find('AcmeProd')).toBeUndefined();
    server.insert(row('a'.repeat(24), 'AcmeProd'));
    expect(server.find('acmeprod')?.pkid).toBe('a'.repeat(24));
    expect(server.find('a'.repeat(24))?.name).toBe('AcmeProd');
    server.update({ ...row('a'.repeat(24), 'AcmeTest'), username: 'other' });
    expect(server.find('AcmeProd')).toBeUndefined();
    expect(server.find('ACMETEST')?.username).toBe('other');
    server.delete('a'.repeat(24));
    expect(server.find('AcmeTest')).toBeUndefined();
    expect(server.list()).toEqual([]);
  });

  it("sees another connection's profile added, changed and removed within the check interval", async () => {
    const { server, cli } = twoConnections();
    expect(server.list()).toEqual([]);
    cli.insert(row('b'.repeat(24), 'FromCli'));
    await wait(150);
    expect(server.find('FromCli')?.base_url).toBe('https://voss.example.test');
    cli.update({ ...row('b'.repeat(24), 'FromCli'), base_url: 'https://elsewhere.example.test' });
    await wait(150);
    expect(server.find('FromCli')?.base_url).toBe('https://elsewhere.example.test');
    cli.delete('b'.repeat(24));
    await wait(150);
    expect(server.find('FromCli')).toBeUndefined();
  });
});
