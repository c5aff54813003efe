import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, Client, PARIS, REMOTE_PASSWORD, startRemote } from '../remote/remote-world';
import { cleanupServers, CLI_PATH, ServeProcess, tempDataDir } from './serve-process';

/** Remote profiles from the command line, and server mode working live through one (`serve --remote`). */
const LOCAL_ADMIN = 'cli-local-admin-1';
let remoteUrl: string;
let dataDir: string;

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args, '--data', dataDir], {
    env: { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  remoteUrl = (await startRemote('21.1')).remote.url;
  dataDir = tempDataDir();
}, 60_000);
afterAll(cleanupServers);

describe('workstation remote ...', () => {
  it('adds, lists and tests a profile; the password comes from WORKSTATION_REMOTE_PASSWORD only', () => {
    const added = cli(['remote', 'add', '--name', 'Cust', '--url', remoteUrl, '--username', 'admin', '--response-ms', '20000']);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^added Cust\t/);
    expect(cli(['remote', 'list']).stdout).toContain(`Cust\t${remoteUrl}\tuser admin\tsession\trelease unknown`);
    const tested = cli(['remote', 'test', 'Cust'], { WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD });
    expect(tested.status).toBe(0);
    expect(tested.stdout).toMatch(/^ok: Cust answers as admin in \d+ ms; it runs release 21\.1 or later/);
    expect(cli(['remote', 'list']).stdout).toContain('21.1-or-later (detected)');
    const noPassword = cli(['remote', 'test', 'Cust']);
    expect(noPassword.status).toBe(1);
    expect(noPassword.stderr).toMatch(/set WORKSTATION_REMOTE_PASSWORD/);
    const wrong = cli(['remote', 'test', 'Cust'], { WORKSTATION_REMOTE_PASSWORD: 'not-the-password' });
    expect(wrong.status).toBe(1);
    expect(wrong.stdout).toMatch(/^wrong-credentials: /);
    // A home hierarchy for a remote without /api/whoami/: kept, listed, and found there by the test.
    expect(
      cli(['remote', 'add', '--name', 'Homed', '--url', remoteUrl, '--username', 'admin', '--home', 'sys.hcs.Telco.Acme']).status,
    ).toBe(0);
    expect(cli(['remote', 'list']).stdout).toContain(`Homed\t${remoteUrl}\tuser admin\tsession\trelease unknown\thome sys.hcs.Telco.Acme`);
    expect(cli(['remote', 'add', '--name', 'BadHome', '--url', remoteUrl, '--username', 'admin', '--home', 'sys..Acme']).stderr).toMatch(
      /home_hierarchy must be a dot path such as sys\.hcs\.Telco\.Acme/,
    );
    expect(cli(['remote', 'remove', 'Homed']).status).toBe(0);
    const bad = cli(['remote', 'add', '--name', 'Bad', '--url', 'ftp://x', '--username', 'u']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/base_url must start with https:\/\/ or http:\/\//);
  });

  it('pulls a mirror with sync pull (whole, then only what changed) and tells its state with sync status', () => {
    expect(cli(['remote', 'add', 'Mirrored', '--url', remoteUrl, '--username', 'admin']).status).toBe(0);
    const never = cli(['sync', 'status', 'Mirrored']);
    expect(never.status).toBe(0);
    expect(never.stdout).toMatch(/^Mirrored: never pulled/);
    const locked = cli(['sync', 'pull', 'Mirrored']);
    expect(locked.status).toBe(2);
    expect(locked.stderr).toMatch(/WORKSTATION_REMOTE_PASSWORD/);
    const first = cli(['sync', 'pull', 'Mirrored'], { WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD });
    // Progress as it goes (a few lines a second at most), then the time it took.
    expect(first.stderr).toMatch(/^pulling Mirrored\.\.\.\n( {2}pull Mirrored: [^\n]+\n)+pulled in [\d.]+ s\n$/);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Mirrored: pulled everything from sys; mirror of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(just now\)/);
    expect(first.stdout).toMatch(/relation\/LineRelation: \d+/);
    const again = cli(['sync', 'pull', 'Mirrored', '--json'], { WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD });
    expect(again.status).toBe(0);
    const answer = JSON.parse(again.stdout) as { mode: string; changed: number; counts: Record<string, number> };
    expect(answer.mode).toBe('changes');
    const status = JSON.parse(cli(['sync', 'status', 'Mirrored', '--json']).stdout) as { mode: string; counts: Record<string, number> };
    expect(status).toMatchObject({ mode: 'changes', counts: answer.counts });
    expect(cli(['sync', 'status', 'NoSuch']).status).toBe(1);
    expect(cli(['sync', 'frobnicate', 'Mirrored']).status).toBe(2);
    // Removing the profile removes its mirror.
    expect(cli(['remote', 'remove', 'Mirrored']).status).toBe(0);
    expect(existsSync(join(dataDir, 'workspaces'))).toBe(true);
    expect(readdirSync(join(dataDir, 'workspaces')).filter((file) => file.startsWith('mirror-'))).toEqual([]);
  });

  it('serves live through the profile with serve --remote, the password held in memory only', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'serve', '--port', '0', '--data', dataDir, '--remote', 'Cust'], {
      env: { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServeProcess(child);
    await server.waitForListening(20_000);
    expect(server.stdoutText).toContain(`remote profile Cust (${remoteUrl}) is ready for live work`);
    const live = new Client(server.url, basic('admin', LOCAL_ADMIN), { 'x-workstation-workspace': 'Cust' });
    const lines = await live.get(`/api/relation/LineRelation/?hierarchy=${encodeURIComponent(PARIS)}&limit=2&api_version=11.5.1`);
    expect(lines.status).toBe(200);
    expect(lines.body.resources).toHaveLength(2);
    expect(lines.headers.get('x-workstation-note')).toMatch(/not sent/);
    await server.stop();
    expect(server.stdoutText + server.stderrText).not.toContain(REMOTE_PASSWORD);
    expect(cli(['remote', 'remove', 'Cust']).stdout).toBe('removed Cust\n');
    expect(cli(['remote', 'list']).stdout).toBe('no remote profiles\n');
  });
});
