import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext } from 'playwright-core';
import type { WorkbookInfo } from '../../main/service/contract/workbook-api';
import { basicAuth, BenchConfigError, type BenchConfig } from './bench-config';
import type { Check } from './bench-targets';
import { startChildServer, type ChildServer } from './child-server';
import type { CleanupStack } from './cleanup-stack';
import { seedStore, uploadFile, writeWorkbook } from './sheets-steps';
import { benchContext, launchBrowser, signIn } from './ui-browser';
import { rendererFolder } from './ui-renderer-build';
import { uiRunCount } from './ui-steps';
import { WorkbookApi } from './ui-workbook-api';
import type { ProgressChange, WorkbookMarks } from './ui-workbook-probe';
import { WORKBOOK_PROBE_SCRIPT } from './ui-workbook-probe';
import { workbookUiChecks, workbookUiText, type ProgressFigures, type WorkbookFigure } from './ui-workbook-report';
import { measureOpen, measureWorkbookRun, openWorkbooksArea, type WorkbookRun, type WorkbookRunPlan } from './ui-workbook-runs';
import { call, waitWhile } from './workbook-calls';
import { numberOf, PARIS, ROWS, writeBook } from './workbook-steps';

/**
 * The workbook grid in headless Chromium (issue 13's UI bench): a staged 100,000-row workbook
 * (5% of rows in error, as `workbook-steps.ts` writes it) served with the current renderer by
 * `serve` in a child process. Each counted run is a fresh page: open the workbook from the
 * Workbooks area, jump to row 90,000, type a bad number into a cell, F8 to the next error; each
 * figure beside the same requests from Node right after. Then a clean workbook is planned and
 * loaded from the grid while the page records each change of its progress bar.
 */
const NAME = 'lines-100k.xlsx';
const LOAD_NAME = 'lines-load.xlsx';
const JUMP_ROW = 90_000;
const TARGETS = { openMs: 1000, jumpMs: 200, editMs: 150, nextMs: 100 } as const;
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);
/**
 * The service's job workers retire after 2 s idle (main/service/jobs/job-pool.ts IDLE_WORKER_MS)
 * and an edit after that starts one (350-450 ms on this machine, measured from Node alone). The
 * page's edit and its Node replay are both made at least this long after the edit before them,
 * so both pay it, every run.
 */
const EDIT_IDLE_MS = 2500;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * BENCH_UI_LOAD_ROWS: the rows of the workbook loaded from the grid (1,000 to 100,000, the phones
 * seeded), default the whole 100,000: about 25 s since the grid stopped reading the workbook again
 * on each batch (it had run at 540 rows/s, over 3 minutes, and the default was 20,000 then).
 */
const LOAD_ROWS = ROWS;
export function loadRowCount(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.BENCH_UI_LOAD_ROWS;
  if (value === undefined || value === '') return LOAD_ROWS;
  const rows = Number(value);
  if (!Number.isInteger(rows) || rows < 1000 || rows > ROWS)
    throw new BenchConfigError(`BENCH_UI_LOAD_ROWS must be 1000 to ${ROWS}, not '${value}'`);
  return rows;
}

/** Uploads a file and stages it as a workbook at Paris; answers once it is checked. */
async function stage(server: ChildServer, authorization: string, file: string, name: string): Promise<WorkbookInfo> {
  await uploadFile(server.origin, authorization, file, name);
  const created = await call<{ workbook: WorkbookInfo }>(server, authorization, 'POST', '/workstation/workbooks/', {
    from: 'upload',
    file: name,
    hierarchy: PARIS,
  });
  return waitWhile(server, authorization, created.workbook.id, ['staging', 'validating']);
}

/** The grid row index of the next row written in error (every 20th, from row 7) after `row`. */
const nextErrorAfter = (row: number): number => row + 1 + ((7 - ((row + 1) % 20) + 20) % 20);

/** Run k edits row 90,000 + k, stepping over row 90,007 (already in error); all are in view after the jump. */
const editRowOf = (run: number): number => JUMP_ROW + run + (run >= 7 ? 1 : 0);

/** A figure's parts relative to its start, for BENCH_UI_DEBUG: shown, painted, each request's start and end. */
const describe = (marks: WorkbookMarks): string => {
  const at = (time: number): string => (time - marks.start).toFixed(0);
  const requests = marks.requests.map(
    (entry) =>
      `${new URL(entry.url).pathname.split('/').slice(-3).join('/')}${new URL(entry.url).search} ${at(entry.startTime)}-${at(entry.responseEnd)}`,
  );
  return `shown ${at(marks.shown)}, painted ${at(marks.painted)} ms; ${requests.join(', ')}`;
};

interface Measured {
  figures: WorkbookFigure[];
  failures: string[];
}

/** The requests a figure waited for: those finished by the time its condition held. */
const waitedFor = (marks: WorkbookMarks): WorkbookMarks['requests'] => marks.requests.filter((entry) => entry.responseEnd <= marks.shown);

async function runAll(context: BrowserContext, origin: string, api: WorkbookApi, workbook: WorkbookInfo, runs: number): Promise<Measured> {
  const titles = {
    open: 'open 100,000-row workbook to first rows painted',
    jump: `jump to row ${JUMP_ROW.toLocaleString('en-US')} painted`,
    edit: 'type a bad number to the row with its issue painted',
    next: 'F8 to the next error painted',
  };
  const figures = {
    open: { title: titles.open, targetMs: TARGETS.openMs, samplesMs: [] as number[], apiMs: [] as number[] },
    jump: { title: titles.jump, targetMs: TARGETS.jumpMs, samplesMs: [] as number[], apiMs: [] as number[] },
    edit: { title: titles.edit, targetMs: TARGETS.editMs, samplesMs: [] as number[], apiMs: [] as number[] },
    next: { title: titles.next, targetMs: TARGETS.nextMs, samplesMs: [] as number[], apiMs: [] as number[] },
  };
  const numberColumn = workbook.sheets[0].columns.findIndex((column) => column.field === 'pattern');
  if (numberColumn < 0) throw new Error('the staged sheet has no Directory Number (pattern) column');
  const column = workbook.sheets[0].columns[numberColumn];
  const failures: string[] = [];
  const warmups = 1;
  for (let index = 0; index < warmups + runs; index += 1) {
    const label = index < warmups ? 'warm-up' : `run ${index - warmups + 1}/${runs}`;
    const editRow = editRowOf(index);
    const plan: WorkbookRunPlan = {
      name: NAME,
      firstRowText: numberOf(0),
      jumpRow: JUMP_ROW,
      jumpRowText: PARIS,
      editRow,
      editValue: `bad number ${index}`,
      numberLetter: column.letter,
      numberColumn,
      nextErrorAfter,
    };
    log(`UI workbook ${label}: open, jump to row ${JUMP_ROW}, edit row ${editRow}, F8`);
    try {
      await sleep(EDIT_IDLE_MS);
      const run: WorkbookRun = await measureWorkbookRun(context, origin, plan);
      // The edit must have given the cell its issue: read back from the service, outside the time.
      const rowId = await api.rowIdAt(workbook.id, editRow);
      const page = await api.json<{ rows: { issues: { column_id: number | null; code: string }[] }[] }>(
        'GET',
        `/workstation/workbooks/${workbook.id}/sheets/0/rows/?skip=${editRow}&limit=1`,
      );
      if (!page.rows[0]?.issues.some((issue) => issue.column_id === column.id && issue.code === 'bad-pattern'))
        throw new Error(`row ${editRow} has no bad-pattern issue after the edit`);
      if (index < warmups) continue;
      const edit = { rowId, columnId: column.id, value: `bad number ${index} from node` };
      for (const [key, marks] of [
        ['open', run.open],
        ['jump', run.jump],
        ['edit', run.edit],
        ['next', run.next],
      ] as const) {
        figures[key].samplesMs.push(marks.painted - marks.start);
        if (key === 'edit') await sleep(EDIT_IDLE_MS);
        if (process.env.BENCH_UI_DEBUG) log(`  ${key}: ${describe(marks)}`);
        figures[key].apiMs.push(await api.replay(workbook.id, waitedFor(marks), key === 'edit' ? edit : undefined));
      }
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      log(`UI workbook ${label} failed: ${failures[failures.length - 1]}`);
    }
  }
  return { figures: [figures.open, figures.jump, figures.edit, figures.next], failures };
}

/**
 * A clean workbook planned from Node, then opened in the grid and loaded with its Load button;
 * the page records each change of the progress bar's value, Node each progress event of the
 * event stream (what the bar is fed with).
 */
async function measureLoad(
  context: BrowserContext,
  server: ChildServer,
  authorization: string,
  api: WorkbookApi,
  file: string,
  rows: number,
): Promise<ProgressFigures> {
  const staged = await stage(server, authorization, file, LOAD_NAME);
  if (staged.counts.errors !== 0) throw new Error(`the workbook to load has ${staged.counts.errors} errors`);
  await call(server, authorization, 'POST', `/workstation/workbooks/${staged.id}/plan/`, { revision: staged.revision });
  await waitWhile(server, authorization, staged.id, ['planning']);
  const page = await openWorkbooksArea(context, server.origin, LOAD_NAME);
  try {
    await measureOpen(page, LOAD_NAME, '+33170000000');
    const events = await api.watchProgressEvents(server.origin);
    await page.evaluate('window.__wbBench.watchProgress()');
    log(`UI workbook: loading ${rows.toLocaleString('en-US')} rows from the grid...`);
    const started = performance.now();
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    let done: WorkbookInfo;
    for (;;) {
      done = await api.info(staged.id);
      if (done.load && !done.load.running) break;
      if (performance.now() - started > 300_000) throw new Error('the load did not finish within 300 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const loadSeconds = (performance.now() - started) / 1000;
    const load = done.load;
    if (!load) throw new Error('the workbook has no load');
    await page
      .getByTestId('workbook-state')
      .filter({ hasText: /loaded/ })
      .waitFor({ timeout: 30_000 });
    const changes = await page.evaluate<ProgressChange[]>('window.__wbBench.progressChanges()');
    const seen = events.stop().filter((event) => event.transactionId === load.transaction_id);
    if (load.loaded !== rows) throw new Error(`the load ended with ${load.loaded} of ${rows} rows loaded (${load.failed} failed)`);
    return { rows, loadSeconds, barChanges: changes.map((change) => change.at), events: seen.map((event) => event.at) };
  } finally {
    await page.close();
  }
}

export interface WorkbookUiOutcome {
  checks: Check[];
  text: string;
}

export async function runWorkbookUiBench(config: BenchConfig, cleanup: CleanupStack): Promise<WorkbookUiOutcome> {
  const runs = uiRunCount();
  const loadRows = loadRowCount();
  const dir = mkdtempSync(join(tmpdir(), 'workstation-ui-workbook-bench-'));
  cleanup.push('remove the UI workbook bench folder', () => rmSync(dir, { recursive: true, force: true }));
  const authorization = basicAuth(config.adminPassword);
  log(`UI workbook: writing the 100,000-row workbook (5% in error) and a clean ${loadRows.toLocaleString('en-US')}-row one to load...`);
  const file = join(dir, NAME);
  const loadFile = join(dir, LOAD_NAME);
  await writeBook(file);
  await writeWorkbook(loadFile, loadRows, '+3317');
  const dataDir = join(dir, 'data');
  await seedStore(dataDir, config.adminPassword);
  log('UI workbook: building the renderer, starting the service...');
  const web = await rendererFolder(dir, cleanup);
  const cli = join(__dirname, '..', '..', 'main', 'cli.js');
  const env = { ...process.env, WORKSTATION_ADMIN_PASSWORD: config.adminPassword };
  const server = await startChildServer(
    'workstation (UI workbook)',
    [cli, 'serve', '--port', '0', '--data', dataDir, '--static', web],
    env,
    cleanup,
  );
  const failures: string[] = [];
  const notes: string[] = [];
  let figures: WorkbookFigure[] = [];
  let progress: ProgressFigures | undefined;
  let api: WorkbookApi | undefined;
  let browser: Browser | undefined;
  try {
    log('UI workbook: staging the 100,000 rows...');
    const workbook = await stage(server, authorization, file, NAME);
    if (workbook.counts.rows_with_errors !== ROWS / 20)
      throw new Error(`expected ${ROWS / 20} rows in error, found ${workbook.counts.rows_with_errors}`);
    browser = await launchBrowser(cleanup);
    const cookie = await signIn(server.origin, config.adminPassword);
    api = new WorkbookApi(server.origin, cookie);
    const context = await benchContext(browser, server.origin, cookie);
    await context.addInitScript({ content: WORKBOOK_PROBE_SCRIPT });
    const measured = await runAll(context, server.origin, api, workbook, runs);
    figures = measured.figures;
    failures.push(...measured.failures);
    try {
      progress = await measureLoad(context, server, authorization, api, loadFile, loadRows);
    } catch (error) {
      failures.push(`load: ${error instanceof Error ? error.message : String(error)}`);
    }
    notes.push(
      `UI workbook: ${runs} runs after 1 warm-up, each on a fresh page (1440x900); "painted" is the first task after the next animation frame once the grid was handed the rows (the commit glide draws its canvas in) or the live region shows the error; "API alone" replays the requests the page had finished by then, from Node, same waves.`,
    );
    if (loadRows < ROWS)
      notes.push(`UI workbook: the load ran on ${loadRows.toLocaleString('en-US')} rows (BENCH_UI_LOAD_ROWS), not 100,000.`);
  } catch (error) {
    failures.push(`set-up: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await api?.close();
    await browser?.close();
    await server.stop();
  }
  notes.push(...failures.map((failure) => `UI workbook failed ${failure}`));
  const checks = workbookUiChecks(figures, progress, failures);
  return { checks, text: workbookUiText(figures, progress, notes, checks) };
}
