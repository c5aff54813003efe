import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, CLI_PATH, tempDataDir } from '../http/serve-process';
import { PARIS, REMOTE_PASSWORD, settled, startRemote, type Client } from '../remote/remote-world';

/**
 * `workstation sync pull` and `sync status` as a user runs them, against a second real service:
 * the mirror said with its date, time and age; a pull that would remove more than a tenth of the
 * mirror's lines refused (exit 2, the mirror kept) until `--allow-mass-delete` is given.
 */
const LOCAL_ADMIN = 'pull-cli-admin-1';
let direct: Client;
let dataDir: string;

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args, '--data', dataDir], {
    env: { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A mirror's label as the CLI prints it: date, time to the second, and an age. */
const LABEL = /mirror of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \((just now|\d+ min ago)\)/;

beforeAll(async () => {
  ({ direct } = await startRemote('20.1.1'));
  dataDir = tempDataDir();
  expect(cli(['remote', 'add', 'Customer', '--url', direct.baseUrl, '--username', 'admin']).status).toBe(0);
}, 120_000);
afterAll(cleanupServers);

describe('sync pull from the command line', () => {
  it('says the mirror with its date, time and age, and needs --allow-mass-delete to remove more than a tenth of a model', async () => {
    const first = cli(['sync', 'pull', 'Customer']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(LABEL);
    expect(first.stdout).toMatch(/relation\/LineRelation: 40\n/);
    const status = cli(['sync', 'status', 'Customer']);
    expect(status.stdout).toMatch(new RegExp(`^Customer: ${LABEL.source} \\(full pull, from sys\\)`));

    // 8 of the demo's 40 lines go on the remote: a fifth.
    const listed = await direct.get(`/api/relation/LineRelation/?hierarchy=${PARIS}&limit=8&format=json`);
    const hrefs = (listed.body.resources as { meta: { pkid: string } }[]).map(
      (resource) => `/api/relation/LineRelation/${resource.meta.pkid}`,
    );
    const removal = await direct.call('DELETE', '/api/relation/LineRelation/?hierarchy=sys&nowait=true', { json: { hrefs } });
    expect(removal.status, removal.text).toBeLessThan(300);
    await settled(direct, removal.body.transaction_id as string);

    const refused = cli(['sync', 'pull', 'Customer']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /would remove more than a tenth of the mirror's instances of a model \(.*8 of 40 relation\/LineRelation/,
    );
    expect(refused.stderr).toContain('--allow-mass-delete');
    expect(cli(['sync', 'status', 'Customer']).stdout).toMatch(/relation\/LineRelation: 40\n/);

    const allowed = cli(['sync', 'pull', 'Customer', '--allow-mass-delete']);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/relation\/LineRelation: 32\n/);
    // The device lines went with them, beside the transactions' own instances: read whole again.
    expect(allowed.stdout).toMatch(/read whole again, as their counts differed from the remote's: .*device\/cucm\/Line/);
    expect(allowed.stdout).toMatch(/device\/cucm\/Line: 32\n/);
  }, 120_000);
});
