import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, CLI_PATH, tempDataDir } from '../http/serve-process';
import { workbookOf } from '../service/bulk-validate-helpers';
import {
  lastPushIn,
  PARIS,
  pushReached,
  REMOTE_PASSWORD,
  remoteTransactionCount,
  startRemote,
  type Client,
  type PushPoint,
} from '../remote/remote-world';

/**
 * Running a command again is safe and says what it does. `workstation sync push <profile>
 * <file>` is killed (SIGKILL) at each step of its push: once it has staged the file and started
 * pushing, once its file is uploaded, once its load is submitted, halfway through the remote's
 * load, as the outcomes are written back. Each time the same command with the same file is run
 * again: it resumes that push (never a new workbook), every row is on the remote exactly once,
 * exit 0. Run once more after it finished, it says "already pushed", sends nothing, exit 0.
 * `workstation load <file>` run again on a file whose rows all loaded says so and runs nothing.
 */
const LOCAL_ADMIN = 'rerun-local-admin-1';
const LINES = 1_500;
const ROWS = LINES + LINES / 20;
let direct: Client;
let dataDir: string;

const env = { ...process.env, WORKSTATION_ADMIN_PASSWORD: LOCAL_ADMIN, WORKSTATION_REMOTE_PASSWORD: REMOTE_PASSWORD };

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args, '--data', dataDir], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function pushChild(file: string): { child: ChildProcess; stderr: () => string } {
  const child = spawn(process.execPath, [CLI_PATH, 'sync', 'push', 'Customer', file, '--data', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stdout?.resume();
  return { child, stderr: () => text };
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** What the workstation's own store holds: the workbooks staged under a name, and its transactions. */
function localCount(sql: string, ...params: string[]): number {
  const db = new Database(join(dataDir, 'workspaces', 'Local.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}

const workbooksNamed = (name: string): number => localCount('SELECT count(*) AS n FROM workbooks WHERE name = ?', name);

async function remoteLines(numbers: string): Promise<number> {
  const found = await direct.get(
    `/api/relation/LineRelation/?hierarchy=sys&filter_field=pattern&filter_condition=startswith&filter_text=${encodeURIComponent(numbers)}&limit=1&format=json`,
  );
  return found.body.pagination.total as number;
}

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
      `Again ${i}`,
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
  direct = started.direct;
  dataDir = tempDataDir();
  expect(cli(['remote', 'add', 'Customer', '--url', started.remote.url, '--username', 'admin']).status).toBe(0);
  expect(cli(['sync', 'pull', 'Customer']).status).toBe(0);
}, 120_000);
afterAll(cleanupServers);

/** `staged`: the file staged and its push started (refreshing the mirror, planning), nothing of it recorded yet. */
type Step = 'staged' | PushPoint;

async function killAt(step: Step, run: { child: ChildProcess; stderr: () => string }, earlier: string | undefined): Promise<void> {
  const { child } = run;
  for (let i = 0; i < 12_000; i += 1) {
    // Past the remote's end, the push has only its outcomes to read and write: it may be quicker than this poll.
    if (child.exitCode !== null && step === 'outcomes') return;
    if (child.exitCode !== null) throw new Error(`the push ended before ${step}: ${run.stderr()}`);
    if (step === 'staged') {
      if (run.stderr().includes('pushing workbook')) break;
    } else {
      const found = lastPushIn(dataDir);
      if (await pushReached(step, found?.push_id === earlier ? undefined : found, direct)) break;
    }
    await sleep(5);
  }
  child.kill('SIGKILL');
  await new Promise((done) => child.once('exit', done));
}

describe('sync push <profile> <file> run again', () => {
  const steps: [Step, string, string][] = [
    ['staged', 'HA', '+331501'],
    ['uploaded', 'HB', '+331502'],
    ['submitted', 'HC', '+331503'],
    ['halfway', 'HD', '+331504'],
    ['outcomes', 'HE', '+331505'],
  ];
  for (const [step, prefix, numbers] of steps) {
    it(`after a kill ${step === 'staged' ? 'once the push started' : `at ${step}`}, resumes the same push: every row on the remote once, exit 0; and once done, sends nothing`, async () => {
      const file = await bookFile(prefix, numbers);
      const earlier = lastPushIn(dataDir)?.push_id;
      await killAt(step, pushChild(file), earlier);
      expect(workbooksNamed(`${prefix}.xlsx`)).toBe(1);

      const again = cli(['sync', 'push', 'Customer', file, '--json']);
      expect(again.status, again.stderr).toBe(0);
      // The same workbook, never one staged anew (whose every row would be "in conflict" with the first's).
      expect(workbooksNamed(`${prefix}.xlsx`)).toBe(1);
      if (step === 'staged') expect(again.stderr).toMatch(/was staged as workbook \S+ already: pushing that workbook/);
      else if (step !== 'outcomes')
        expect(again.stderr).toMatch(/resuming the unfinished push of .* \(workbook \S+, stopped when \w+\): nothing is staged again/);
      const answer = JSON.parse(again.stdout) as { loaded: number; failed?: number; conflicts?: number; already_pushed?: boolean };
      expect(answer.loaded).toBe(ROWS);
      if (!answer.already_pushed) expect(answer).toMatchObject({ failed: 0, conflicts: 0 });
      expect(lastPushIn(dataDir)?.state).toBe('done');
      expect(await remoteLines(numbers)).toBe(LINES);
      for (const i of [0, LINES / 2, LINES - 1]) expect(await lineCount(`${numbers}${String(i).padStart(6, '0')}`)).toBe(1);

      // Once more, after it finished: said, nothing sent.
      const transactions = await remoteTransactionCount(direct);
      const done = cli(['sync', 'push', 'Customer', file]);
      expect(done.status, done.stderr).toBe(0);
      expect(done.stdout).toMatch(
        new RegExp(
          `^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: already pushed in \\S+ at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\(workbook \\S+, ${ROWS} row\\(s\\) loaded on Customer\\); nothing sent\\n$`,
        ),
      );
      expect(done.stderr).not.toContain('pushing workbook');
      expect(await remoteTransactionCount(direct)).toBe(transactions);
      expect(await remoteLines(numbers)).toBe(LINES);
      expect(workbooksNamed(`${prefix}.xlsx`)).toBe(1);
    }, 240_000);
  }
});

describe('load <file> run again', () => {
  it('says the file loaded already, runs nothing and exits 0; another content is loaded', async () => {
    const file = join(dataDir, 'countries.xlsx');
    const countries = (codes: string[]): Promise<Buffer> =>
      workbookOf([
        {
          name: 'Countries',
          rows: [['country_name', 'iso_code', 'international_prefix'], ...codes.map((code) => [`Land ${code}`, code, '00'])],
        },
      ]);
    writeFileSync(file, await countries(['QA', 'QB', 'QC']));
    const first = cli(['load', file]);
    expect(first.status, `${first.stdout}${first.stderr}`).toBe(0);
    const transactions = localCount('SELECT count(*) AS n FROM transactions');

    const again = cli(['load', file]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      /countries\.xlsx: already loaded in transaction \S+ at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \(workbook \S+, 3 row\(s\)\); nothing run\n$/,
    );
    expect(localCount('SELECT count(*) AS n FROM transactions')).toBe(transactions);
    expect(workbooksNamed('countries.xlsx')).toBe(1);
    const json = cli(['load', file, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'load', exit_code: 0, already_loaded: true, rows: 3 });

    // Another content under the same name is another file: it is staged and loaded.
    writeFileSync(file, await countries(['QD']));
    const other = cli(['load', file]);
    expect(other.status, `${other.stdout}${other.stderr}`).toBe(0);
    expect(other.stdout).not.toContain('already loaded');
    expect(workbooksNamed('countries.xlsx')).toBe(2);
  }, 120_000);
});
