import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, CLI_PATH, tempDataDir } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import { lastPushIn, PARIS, pushReached, REMOTE_PASSWORD, startRemote, type Client, type PushPoint } from './remote-world';

/**
 * `workstation sync push` killed with SIGKILL at each point of a push: (a) once its file is
 * uploaded, (b) once its load is submitted, (c) halfway through the remote's load, (d) as the
 * remote's load ends and the outcomes are being written back. Each time `sync push --workbook`
 * is run again to its end: every row exists on the remote exactly once, the workbook's outcomes
 * are the remote's, and the push reports done.
 */
const LOCAL_ADMIN = 'kill-local-admin-1';
const LINES = 1_500;
let direct: Client;
let remoteUrl: string;
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

function pushChild(args: string[]): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [CLI_PATH, 'sync', 'push', 'Customer', ...args, '--data', dataDir], {
    env: { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stdout?.resume();
  return { child, stderr: () => text };
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function lineCount(pattern: string): Promise<number> {
  const found = await direct.get(
    `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}&format=json`,
  );
  return found.body.pagination.total as number;
}

async function bookFile(prefix: string, numbers: string): Promise<string> {
  const phones: string[][] = [['Hierarchy Node', 'name', 'product', 'protocol']];
  for (let i = 0; i < LINES / 20; i += 1) phones.push([PARIS, `SEP${prefix}${String(i).padStart(10, '0')}`, 'Cisco 8845', 'SIP']);
  const rows: string[][] = [['Hierarchy Node', 'Device', 'Directory Number', 'Alerting Name', 'Route Partition']];
  for (let i = 0; i < LINES; i += 1)
    rows.push([
      PARIS,
      `SEP${prefix}${String(Math.floor(i / 20)).padStart(10, '0')}`,
      `${numbers}${String(i).padStart(6, '0')}`,
      `Killed ${i}`,
      'Paris-PT',
    ]);
  const file = join(dataDir, `${prefix}.xlsx`);
  writeFileSync(
    file,
    await workbookOf([
      { name: 'Phone', rows: phones },
      { name: 'LineRelation', rows },
    ]),
  );
  return file;
}

beforeAll(async () => {
  const started = await startRemote('20.1.1');
  remoteUrl = started.remote.url;
  direct = started.direct;
  dataDir = tempDataDir();
  expect(cli(['remote', 'add', 'Customer', '--url', remoteUrl, '--username', 'admin']).status).toBe(0);
  expect(cli(['sync', 'pull', 'Customer']).status).toBe(0);
}, 120_000);
afterAll(cleanupServers);

async function killAt(point: PushPoint, child: ChildProcess, earlier: string | undefined): Promise<void> {
  for (let i = 0; i < 6000; i += 1) {
    // Past the remote's end, the push has only its outcomes to read and write: it may be quicker than this poll.
    if (child.exitCode !== null && point === 'outcomes') return;
    if (child.exitCode !== null) throw new Error(`the push ended before ${point}`);
    const found = lastPushIn(dataDir);
    // The push of an earlier test is not this one.
    if (await pushReached(point, found?.push_id === earlier ? undefined : found, direct)) break;
    await sleep(5);
  }
  child.kill('SIGKILL');
  await new Promise((done) => child.once('exit', done));
}

describe('sync push killed at each point, then run again', () => {
  const points: [PushPoint, string, string][] = [
    ['uploaded', 'GA', '+331401'],
    ['submitted', 'GB', '+331402'],
    ['halfway', 'GC', '+331403'],
    ['outcomes', 'GD', '+331404'],
  ];
  for (const [point, prefix, numbers] of points) {
    it(`loads every row exactly once after a kill ${point === 'outcomes' ? 'while the outcomes are written back' : `at ${point}`}`, async () => {
      const file = await bookFile(prefix, numbers);
      const earlier = lastPushIn(dataDir)?.push_id;
      const first = pushChild([file]);
      await killAt(point, first.child, earlier);
      const id = /pushing workbook (\S+) to Customer/.exec(first.stderr())?.[1];
      expect(id, first.stderr()).toBeDefined();
      const again = cli(['sync', 'push', 'Customer', '--workbook', id ?? '', '--json']);
      expect(again.status, again.stderr).toBe(0);
      const answer = JSON.parse(again.stdout) as { loaded: number; failed: number; pushed: number; resumed: boolean };
      expect(answer).toMatchObject({ loaded: LINES + LINES / 20, failed: 0 });
      // Killed before its end, the push was left unfinished, and this run went on with it.
      if (point !== 'outcomes') expect(answer.resumed).toBe(true);
      expect(lastPushIn(dataDir)?.state).toBe('done');
      for (const i of [0, 1, LINES / 2, LINES - 1]) expect(await lineCount(`${numbers}${String(i).padStart(6, '0')}`)).toBe(1);
      const lines = await direct.get(
        `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=startswith&filter_text=${encodeURIComponent(numbers)}&limit=1&format=json`,
      );
      expect(lines.body.pagination.total).toBe(LINES);
      // The remote ran one load of this workbook's file (never a second one).
      const loads = await direct.get(
        `/api/tool/Transaction/?hierarchy=sys&filter_field=detail&filter_condition=contains&filter_text=workstation-push-&limit=100&format=json`,
      );
      const details = (loads.body.resources as { data: { detail: string } }[]).map((resource) => resource.data.detail);
      expect(new Set(details).size).toBe(details.length);
    }, 180_000);
  }
});
