import type { SyncPullAnswer, SyncPushAnswer } from '../../main/service/contract/workstation-api';
import type { BenchConfig } from './bench-config';
import { TARGETS, type Check } from './bench-targets';
import type { ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { rssOf } from './sheets-steps';
import { openBareSession, pagesDiffer, PULL_PAGE, readPullPages, type BareRead } from './sync-pages';
import { openSyncWorld, PARIS, pushBook, SYNC_LINES, type SyncWorld } from './sync-world';
import { textTable } from './text-table';
import { call, waitWhile } from './workbook-calls';

/**
 * BENCH_ONLY=sync (and the full bench): `sync pull` and `sync push` of the workstation (a `serve`
 * child) against a remote (another `serve` child) holding 100,000 lines, each beside a baseline
 * measured in the same run.
 * - Pull: a whole pull, timed from its POST to its answer, against a bare undici client reading
 *   the same list pages one after the other (sync-pages.ts), in an A B B A block (bare, pull,
 *   pull, bare; each pull on a fresh profile, so each is whole). Rate: the remote's lines / s.
 * - Push: a staged workbook of 10,000 new lines on 500 new phones (10,500 rows), timed from its
 *   POST to its answer, against the remote's own bulk load of a workbook of the same shape with
 *   other numbers (upload, `nowait`, its transaction polled every 250 ms as the push polls),
 *   once before the push and once after. Rate: rows / s.
 * The workstation's peak RSS (/proc, every 20 ms) during each pull and the push.
 */
/** A push's or a baseline's rows: its lines and a phone per 20 of them. */
const rowsOf = (lines: number): number => lines + lines / 20;
const PUSH_LINES = 10_000;
const PUSH_ROWS = rowsOf(PUSH_LINES);
const WARM_UP_LINES = 1000;
const POLL_MS = 250;
const UNFINISHED = new Set(['Queued', 'In Progress', 'Processing']);
/** With BENCH_SYNC_PROFILE, each line carries the monotonic clock (µs) the CPU profiles' timestamps use, to cut them by step. */
const clock = (): string => (process.env.BENCH_SYNC_PROFILE ? ` [${process.hrtime.bigint() / 1000n} µs]` : '');
const log = (line: string): void => void process.stderr.write(`bench: ${line}${clock()}\n`);
const LINE_MODEL = 'relation/LineRelation';

interface Usage {
  local: number | undefined;
  remote: number | undefined;
  peakRssMb: number;
  /** The anonymous and file-backed parts at the peak (mapped pages of the workspace files count as file). */
  peakParts: string;
}

/** CPU of both servers (% of one core) and the workstation's peak RSS over `work`. */
async function watched<T>(world: SyncWorld, work: () => Promise<T>): Promise<{ value: T; seconds: number; usage: Usage }> {
  const cpu = (child: ChildServer): number | undefined => child.cpuSeconds();
  const before = { local: cpu(world.local), remote: cpu(world.remote) };
  let peak = rssOf(world.local.pid);
  const sample = (): void => {
    const now = rssOf(world.local.pid);
    if (now.total > peak.total) peak = now;
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    clearInterval(sampler);
  }
  sample();
  const seconds = (performance.now() - started) / 1000;
  const percent = (from: number | undefined, to: number | undefined): number | undefined =>
    from === undefined || to === undefined ? undefined : ((to - from) / seconds) * 100;
  return {
    value,
    seconds,
    usage: {
      local: percent(before.local, cpu(world.local)),
      remote: percent(before.remote, cpu(world.remote)),
      peakRssMb: peak.total,
      peakParts: `${peak.anon.toFixed(0)} + ${peak.file.toFixed(0)}`,
    },
  };
}

async function localCall<T>(world: SyncWorld, method: string, path: string, body?: unknown): Promise<T> {
  return call<T>(world.local, world.localAuth, method, path, body);
}

/** One GET through the profile's live workspace: its pool connected and its session open before a timed pull. */
async function warmProfile(world: SyncWorld, profile: string): Promise<void> {
  const reply = await fetch(`${world.local.origin}/api/whoami/?format=json`, {
    headers: { authorization: world.localAuth, 'x-workstation-workspace': profile },
  });
  const text = await reply.text();
  if (reply.status !== 200) throw new Error(`a live GET through ${profile} answered ${reply.status}: ${text.slice(0, 200)}`);
}

interface PullRun {
  label: string;
  seconds: number;
  lines: number;
  instances: number;
  pages?: number;
  usage: Partial<Usage> & { client?: number };
}

async function timedPull(world: SyncWorld, profile: string, label: string): Promise<{ run: PullRun; answer: SyncPullAnswer }> {
  await warmProfile(world, profile);
  log(`sync: ${label}...`);
  const {
    value: answer,
    seconds,
    usage,
  } = await watched(world, () => localCall<SyncPullAnswer>(world, 'POST', `/workstation/sync/${profile}/pull/`));
  log(`sync: ${label} answered in ${seconds.toFixed(2)} s`);
  if (answer.mode !== 'full') throw new Error(`${label} was a pull of ${answer.mode}, not a whole pull`);
  const instances = Object.values(answer.counts).reduce((sum, count) => sum + count, 0);
  return { run: { label, seconds, lines: answer.counts[LINE_MODEL] ?? 0, instances, usage }, answer };
}

function bareRun(label: string, read: BareRead, usage: Usage): PullRun {
  const instances = Object.values(read.counts).reduce((sum, count) => sum + count, 0);
  return {
    label,
    seconds: read.seconds,
    lines: read.counts[LINE_MODEL] ?? 0,
    instances,
    pages: read.urls.length,
    usage: { ...usage, peakRssMb: undefined, peakParts: undefined, client: (read.cpuSeconds / read.seconds) * 100 },
  };
}

/** A push's or a load's time, split by the remote's parent transaction: before it was submitted, its run, after its end. */
interface Phases {
  beforeSubmit: number;
  remoteLoad: number;
  afterLoad: number;
}

interface LoadRun {
  label: string;
  rows: number;
  seconds: number;
  phases: Phases;
  usage: Usage;
}

const epochOf = (iso: unknown): number => (typeof iso === 'string' ? Date.parse(`${iso.slice(0, 23)}Z`) : Number.NaN);

/** A remote transaction: its status, its data, and how many sub-transactions it has (its counts: the answer lists only the first 100). */
async function transactionOf(world: SyncWorld, id: string): Promise<{ status: string; data: Record<string, unknown>; rows: number }> {
  const reply = await fetch(`${world.remote.origin}/api/tool/Transaction/${encodeURIComponent(id)}/?format=json`, {
    headers: { authorization: world.remoteAuth },
  });
  const body = (await reply.json()) as { data?: Record<string, unknown> };
  if (reply.status !== 200 || !body.data) throw new Error(`the remote's transaction ${id} answered ${reply.status}`);
  const subs = Array.isArray(body.data.sub_transactions) ? (body.data.sub_transactions as unknown[]) : [];
  const counts = body.data.sub_transaction_counts as { total?: unknown } | undefined;
  const rows = typeof counts?.total === 'number' ? counts.total : subs.length;
  return { status: typeof body.data.status === 'string' ? body.data.status : '', data: body.data, rows };
}

function phasesOf(data: Record<string, unknown>, startedAt: number, endedAt: number): Phases {
  const submitted = epochOf(data.submitted_time);
  const completed = epochOf(data.completed_time);
  return {
    beforeSubmit: (submitted - startedAt) / 1000,
    remoteLoad: (completed - submitted) / 1000,
    afterLoad: (endedAt - completed) / 1000,
  };
}

async function uploadTo(origin: string, authorization: string, hierarchy: string, name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  form.append('uploadedfile', new Blob([bytes]), name);
  const reply = await fetch(`${origin}/api/uploadfiles/?hierarchy=${encodeURIComponent(hierarchy)}`, {
    method: 'POST',
    headers: { authorization },
    body: form,
  });
  if (reply.status !== 200) throw new Error(`the upload of ${name} answered ${reply.status}: ${(await reply.text()).slice(0, 300)}`);
}

/** A workbook of the push's shape: `lines` new lines on new phones (`prefix` names them, `numbers` starts their numbers). */
interface Book {
  prefix: string;
  numbers: string;
  lines: number;
}

/** The baseline: the workbook uploaded to the remote and bulk-loaded there with nowait, its transaction polled to the end. */
async function remoteLoad(world: SyncWorld, label: string, name: string, book: Book): Promise<LoadRun> {
  const bytes = await pushBook(book.prefix, book.numbers, book.lines);
  log(`sync: ${label}...`);
  const startedAt = Date.now();
  const { value, seconds, usage } = await watched(world, async () => {
    await uploadTo(world.remote.origin, world.remoteAuth, PARIS, name, bytes);
    const query = new URLSearchParams({ hierarchy: PARIS, method: 'bulkload_spreadsheet', nowait: 'true', format: 'json' });
    const reply = await fetch(`${world.remote.origin}/api/tool/BulkLoad/?${query.toString()}`, {
      method: 'POST',
      headers: { authorization: world.remoteAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ bulkload_file: name, execute_immediately: true }),
    });
    const submitted = (await reply.json()) as { transaction_id?: string };
    if (reply.status >= 300 || !submitted.transaction_id) throw new Error(`the remote's bulk load of ${name} answered ${reply.status}`);
    for (;;) {
      const parent = await transactionOf(world, submitted.transaction_id);
      if (!UNFINISHED.has(parent.status)) return parent;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });
  const endedAt = Date.now();
  log(`sync: ${label} ended in ${seconds.toFixed(2)} s`);
  if (value.status !== 'Success' || value.rows !== rowsOf(book.lines))
    throw new Error(`${label} ended ${value.status} with ${value.rows} rows of ${rowsOf(book.lines)}`);
  return { label, rows: value.rows, seconds, phases: phasesOf(value.data, startedAt, endedAt), usage };
}

interface StagedInfo {
  id: string;
  state: string;
  revision: number;
  counts: { errors: number };
  plan: { totals: Record<string, number> } | null;
}

/** The push's workbook staged for the profile at Paris (upload, then POST /workstation/workbooks/) and planned. */
async function stageForPush(world: SyncWorld, profile: string, name: string, bytes: Buffer): Promise<string> {
  await uploadTo(world.local.origin, world.localAuth, 'sys', name, bytes);
  const made = await localCall<{ workbook: StagedInfo }>(world, 'POST', '/workstation/workbooks/', {
    from: 'upload',
    file: name,
    profile,
    hierarchy: PARIS,
  });
  const busy = ['staging', 'validating', 'planning'];
  const staged = (await waitWhile(world.local, world.localAuth, made.workbook.id, busy)) as unknown as StagedInfo;
  if (staged.counts.errors !== 0) throw new Error(`the push's workbook was staged with ${staged.counts.errors} errors (${staged.state})`);
  await localCall(world, 'POST', `/workstation/workbooks/${staged.id}/plan/`, { revision: staged.revision });
  const planned = (await waitWhile(world.local, world.localAuth, staged.id, busy)) as unknown as StagedInfo;
  if (planned.plan?.totals.add !== PUSH_ROWS)
    throw new Error(`the push's workbook planned ${JSON.stringify(planned.plan?.totals)}, not ${PUSH_ROWS} adds`);
  return staged.id;
}

async function timedPush(world: SyncWorld, profile: string, workbook: string): Promise<{ run: LoadRun; answer: SyncPushAnswer }> {
  log(`sync: push of ${PUSH_ROWS.toLocaleString('en-US')} rows...`);
  const startedAt = Date.now();
  const {
    value: answer,
    seconds,
    usage,
  } = await watched(world, () => localCall<SyncPushAnswer>(world, 'POST', `/workstation/sync/${profile}/push/`, { workbook }));
  const endedAt = Date.now();
  log(`sync: push answered in ${seconds.toFixed(2)} s`);
  if (answer.pushed !== PUSH_ROWS || answer.loaded !== PUSH_ROWS || answer.failed !== 0 || !answer.remote_transaction_id)
    throw new Error(`the push answered ${JSON.stringify({ ...answer, changed_since_plan: answer.changed_since_plan.length })}`);
  const parent = await transactionOf(world, answer.remote_transaction_id);
  return { run: { label: 'sync push', rows: answer.loaded, seconds, phases: phasesOf(parent.data, startedAt, endedAt), usage }, answer };
}

export interface SyncOutcome {
  checks: Check[];
  text: string;
}

export async function runSyncBench(config: BenchConfig, cleanup: CleanupStack): Promise<SyncOutcome> {
  log(`sync: seeding the remote (demo world, ${SYNC_LINES.toLocaleString('en-US')} lines), starting it and the workstation...`);
  const world = await openSyncWorld(config, cleanup);
  log(`sync: remote seeded in ${world.seedSeconds.toFixed(1)} s`);
  try {
    // One untimed pull through the recording proxy: the requests a pull makes, and a warm remote for both sides.
    const recorded = await world.addProfile('SyncRecorded', true);
    await warmProfile(world, recorded);
    world.recorder.requests.length = 0;
    log('sync: an untimed pull through the recording proxy...');
    await localCall<SyncPullAnswer>(world, 'POST', `/workstation/sync/${recorded}/pull/`);
    const requests = [...world.recorder.requests];
    await world.recorder.stop();

    const session = await openBareSession(world.remote.origin, world.remoteUser.username, world.remoteUser.password);
    const bare = async (n: number): Promise<{ run: PullRun; read: BareRead }> => {
      log(`sync: bare undici client, the pull's pages (${n})...`);
      const { value: read, usage } = await watched(world, () => readPullPages(session));
      log(`sync: bare undici client (${n}) read the pages in ${read.seconds.toFixed(2)} s`);
      return { run: bareRun(`bare undici client (${n})`, read, usage), read };
    };
    const first = await bare(1);
    const same = pagesDiffer(requests, first.read.urls);
    if (same.difference) throw new Error(`the bare client's pages are not the pull's: ${same.difference}`);
    const pullA = await timedPull(world, await world.addProfile('SyncA'), 'sync pull (1)');
    const pushProfile = await world.addProfile('SyncB');
    const pullB = await timedPull(world, pushProfile, 'sync pull (2)');
    const last = await bare(2);
    await session.client.close();

    log(`sync: staging and planning the push's workbook (${PUSH_ROWS.toLocaleString('en-US')} rows) for ${pushProfile}...`);
    const workbook = await stageForPush(world, pushProfile, 'sync-push.xlsx', await pushBook('AA', '+3316', PUSH_LINES));
    // A first bulk load on the remote pays its start (the load's worker, statements, JIT): an untimed one first, so all three timed ones run warm.
    await remoteLoad(world, 'remote bulk load, warm-up', 'sync-warm-up.xlsx', { prefix: 'DD', numbers: '+3319', lines: WARM_UP_LINES });
    const loadBefore = await remoteLoad(world, 'remote bulk load (1)', 'sync-baseline-1.xlsx', {
      prefix: 'BB',
      numbers: '+3317',
      lines: PUSH_LINES,
    });
    // The load above changed more than a changes pull takes: an untimed pull now, so the push's own refresh reads changes only.
    log('sync: an untimed pull after the baseline load...');
    const refreshed = await localCall<SyncPullAnswer>(world, 'POST', `/workstation/sync/${pushProfile}/pull/`);
    const push = await timedPush(world, pushProfile, workbook);
    const loadAfter = await remoteLoad(world, 'remote bulk load (2)', 'sync-baseline-2.xlsx', {
      prefix: 'CC',
      numbers: '+3318',
      lines: PUSH_LINES,
    });
    return report({
      pulls: [first.run, pullA.run, pullB.run, last.run],
      listed: same.listed.length,
      singles: same.singles,
      mirrored: [pullA.answer, pullB.answer].map((answer) => answer.counts[LINE_MODEL] ?? 0),
      expectedLines: first.read.counts[LINE_MODEL] ?? 0,
      loads: [loadBefore, push.run, loadAfter],
      refreshMode: refreshed.mode,
    });
  } finally {
    await Promise.all([world.local.stop(), world.remote.stop()]);
  }
}

interface Figures {
  pulls: PullRun[];
  listed: number;
  singles: string[];
  mirrored: number[];
  expectedLines: number;
  loads: LoadRun[];
  refreshMode: string;
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
const int = (value: number): string => Math.round(value).toLocaleString('en-US');
const cpu = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(0)}%`);
const mb = (usage: Partial<Usage>): string =>
  usage.peakRssMb === undefined ? '-' : `${usage.peakRssMb.toFixed(0)} (${usage.peakParts ?? '-'})`;
const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

function report(f: Figures): SyncOutcome {
  const isBare = (run: PullRun): boolean => run.pages !== undefined;
  const pullRate = mean(f.pulls.filter((run) => !isBare(run)).map((run) => run.lines / run.seconds));
  const bareRate = mean(f.pulls.filter(isBare).map((run) => run.lines / run.seconds));
  const pullRatio = pullRate / bareRate;
  const [loadBefore, push, loadAfter] = f.loads;
  const loadRate = mean([loadBefore, loadAfter].map((run) => run.rows / run.seconds));
  const pushRate = push.rows / push.seconds;
  const pushRatio = pushRate / loadRate;
  const pullTable = textTable(
    [
      'pull',
      'pages',
      'lines',
      'instances',
      's',
      'lines/s',
      'workstation CPU',
      'remote CPU',
      'bench client CPU',
      'workstation peak RSS MB (anon + file)',
    ],
    f.pulls.map((run) => [
      run.label,
      run.pages === undefined ? '-' : String(run.pages),
      int(run.lines),
      int(run.instances),
      run.seconds.toFixed(2),
      int(run.lines / run.seconds),
      cpu(run.usage.local),
      cpu(run.usage.remote),
      cpu(run.usage.client),
      mb(run.usage),
    ]),
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]),
  );
  const loadTable = textTable(
    [
      'push',
      'rows',
      's',
      'rows/s',
      'before submit s',
      'remote load s',
      'after the load s',
      'workstation CPU',
      'remote CPU',
      'workstation peak RSS MB (anon + file)',
    ],
    f.loads.map((run) => [
      run.label,
      int(run.rows),
      run.seconds.toFixed(2),
      int(run.rows / run.seconds),
      run.phases.beforeSubmit.toFixed(2),
      run.phases.remoteLoad.toFixed(2),
      run.phases.afterLoad.toFixed(2),
      cpu(run.usage.local),
      cpu(run.usage.remote),
      run === push ? mb(run.usage) : '-',
    ]),
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9]),
  );
  const checks: Check[] = [
    {
      subject: 'sync pull of the remote',
      target: `lines/s >= ${pct(TARGETS.syncPullRatio)} of a bare undici client reading the same pages (means of an A B B A block)`,
      measured: `${int(pullRate)}/s vs ${int(bareRate)}/s = ${pct(pullRatio)}`,
      pass: pullRatio >= TARGETS.syncPullRatio,
    },
    {
      subject: `sync push of ${int(PUSH_ROWS)} rows`,
      target: `rows/s >= ${pct(TARGETS.syncPushRatio)} of the remote's own bulk load of the same shape (mean of one before and one after)`,
      measured: `${int(pushRate)}/s vs ${int(loadRate)}/s = ${pct(pushRatio)}`,
      pass: pushRatio >= TARGETS.syncPushRatio,
    },
    {
      subject: 'sync pull mirrors every line the pages hold',
      target: `${int(f.expectedLines)} lines in each mirror`,
      measured: f.mirrored.map(int).join(', '),
      pass: f.mirrored.every((lines) => lines === f.expectedLines),
    },
  ];
  const lines = checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.subject}: ${c.measured} (target ${c.target})`);
  const notes = [
    `The bare client's ${f.listed} pages (limit ${PULL_PAGE}) are the list pages an untimed pull read through a recording proxy, in order; the pull also made ${f.singles.length} single reads (${f.singles.map((url) => url.split('?')[0]).join(', ')}).`,
    `Before the push: an untimed pull (${f.refreshMode}) took in the first baseline load's changes, so the push's own refresh reads changes only.`,
  ];
  return {
    checks,
    text: `Sync (a second serve on 127.0.0.1 with the demo world and ${int(SYNC_LINES)} seeded lines; the workstation a serve child):\n${pullTable}\n${notes[0]}\n${loadTable}\n${notes[1]}\n${lines.join('\n')}`,
  };
}
