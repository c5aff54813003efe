import { proposeWorkbook } from '../../main/service/mapping/propose-workbook';
import * as ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkbookEditResult, WorkbookInfo, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { basicAuth, type BenchConfig } from './bench-config';
import type { Check } from './bench-targets';
import { stopChild } from './child-process-stop';
import type { CleanupStack } from './cleanup-stack';
import { percentile } from './latency-stats';
import { baselineRead, baselineWrite, measureJob, median, seedStore, startServer, uploadFile, type JobFigures } from './sheets-steps';
import { textTable } from './text-table';
import { measureMillionPages, type MillionFigures } from './workbook-million';
import { call, info, waitWhile } from './workbook-calls';
import { measureMappedStaging, writeSurvey, type MappedStaging } from './mapping-stage';

/**
 * BENCH_ONLY=workbook: a staged workbook of 100,000 LineRelation rows (5% of them in error: a
 * directory number that is not one) over HTTP against the service in a child process. Staging
 * (until its rows are stored and readable) beside exceljs's streaming read of the same file;
 * single-cell edits answered with their issues; pages of 200 rows filtered to errors; saving
 * beside exceljs's streaming write of the same rows; the server's peak RSS throughout. Then pages
 * at the top and the bottom of a 1,000,000-row workbook (workbook-million.ts).
 */
export const PARIS = 'sys.hcs.Telco.Acme.Paris';
export const ROWS = 100_000;
const EDITS = 200;
/** 500 pages: a p99 of 200 samples is their second slowest, one pause of the client or the server away. */
const PAGES = 500;
const TARGETS = {
  stageRatio: 0.5,
  editP99Ms: 50,
  pageP99Ms: 20,
  planRate: 20_000,
  saveRatio: 0.5,
  rssMb: 500,
  proposeMs: 1000,
  mappedStageRatio: 0.5,
} as const;
const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);

const header = ['Hierarchy Node', 'Action', 'Device', 'CFT Template', 'Directory Number', 'Alerting Name'];
const phone = (i: number): string => `SEPBE${String(Math.floor(i / 4)).padStart(10, '0')}`;
/** Every 20th row's number is not a number: 5% of rows in error. */
export const numberOf = (i: number): string => (i % 20 === 7 ? `not-a-number-${i}` : `+3319${String(i).padStart(7, '0')}`);

export async function writeBook(file: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = writer.addWorksheet('LineRelation');
  sheet.addRow(header).commit();
  for (let i = 0; i < ROWS; i += 1) sheet.addRow([PARIS, 'add', phone(i), 'Acme Line Defaults', numberOf(i), `Person ${i}`]).commit();
  await writer.commit();
}

const timed = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

export interface WorkbookOutcome {
  checks: Check[];
  text: string;
}

export async function runWorkbookBench(config: BenchConfig, cleanup: CleanupStack): Promise<WorkbookOutcome> {
  const dir = mkdtempSync(join(tmpdir(), 'workstation-workbook-bench-'));
  cleanup.push('remove the workbook bench folder', () => rmSync(dir, { recursive: true, force: true }));
  const authorization = basicAuth(config.adminPassword);
  const file = join(dir, 'lines-100k.xlsx');
  log('workbook: writing the 100,000-row workbook (5% of rows in error), seeding the demo world and phones...');
  await writeBook(file);
  const dataDir = join(dir, 'data');
  await seedStore(dataDir, config.adminPassword);
  const server = await startServer(dataDir, config.adminPassword, cleanup);
  try {
    await uploadFile(server.origin, authorization, file, 'lines-100k.xlsx');
    log("workbook: staging it, beside exceljs's streaming read of the file...");
    const readRate = median([await baselineRead(file), await baselineRead(file), await baselineRead(file)]);
    log('workbook: proposing a mapping for the 100,000-row sheet (issue 31: from its header and a sample of rows)...');
    const proposeMs: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const started = performance.now();
      await proposeWorkbook(file, 'lines-100k.xlsx');
      proposeMs.push(performance.now() - started);
    }
    let id = '';
    let validateSeconds = 0;
    const staging = await measureJob(server, authorization, async () => {
      const created = await call<{ workbook: WorkbookInfo }>(server, authorization, 'POST', '/workstation/workbooks/', {
        from: 'upload',
        file: 'lines-100k.xlsx',
        hierarchy: PARIS,
      });
      id = created.workbook.id;
      await waitWhile(server, authorization, id, ['staging']);
    });
    const validating = await measureJob(server, authorization, async () => {
      const started = performance.now();
      const done = await waitWhile(server, authorization, id, ['validating']);
      validateSeconds = (performance.now() - started) / 1000;
      if (done.counts.rows_with_errors !== ROWS / 20)
        throw new Error(`expected ${ROWS / 20} rows in error, found ${done.counts.rows_with_errors}`);
    });
    log(`workbook: ${EDITS} single-cell edits, then ${PAGES} pages of 200 rows filtered to errors...`);
    const editMs: number[] = [];
    const pageMs: number[] = [];
    let current = await info(server, authorization, id);
    const numberColumn = current.sheets[0].columns.find((column) => column.field === 'pattern')?.id ?? 0;
    const edits = await measureJob(server, authorization, async () => {
      for (let i = 0; i < EDITS; i += 1) {
        const index = Math.floor((i * 7919) % ROWS);
        const row = (
          await call<WorkbookRowPage>(server, authorization, 'GET', `/workstation/workbooks/${id}/sheets/0/rows/?skip=${index}&limit=1`)
        ).rows[0];
        const value = i % 2 === 0 ? `bad ${i}` : `+3318${String(i).padStart(7, '0')}`;
        let answer: WorkbookEditResult | undefined;
        editMs.push(
          await timed(async () => {
            answer = await call<WorkbookEditResult>(server, authorization, 'POST', `/workstation/workbooks/${id}/edits/`, {
              revision: current.revision,
              edit: { op: 'set', sheet: 0, cells: [{ row_id: row.id, column_id: numberColumn, value }] },
            });
          }),
        );
        if (!answer || (i % 2 === 0) !== answer.issues.some((issue) => issue.row_id === row.id && issue.code === 'bad-pattern'))
          throw new Error(`edit ${i} answered without its issue`);
        current = { ...current, revision: answer.revision };
      }
    });
    const pages = await measureJob(server, authorization, async () => {
      for (let i = 0; i < PAGES; i += 1) {
        const skip = (i * 997) % (ROWS / 20 - 200);
        pageMs.push(
          await timed(() =>
            call(server, authorization, 'GET', `/workstation/workbooks/${id}/sheets/0/rows/?only=errors&skip=${skip}&limit=200`),
          ),
        );
      }
    });
    log('workbook: planning it (a full validation that records what each row will do)...');
    const planning = await measureJob(server, authorization, async () => {
      await call(server, authorization, 'POST', `/workstation/workbooks/${id}/plan/`, { revision: current.revision });
      const done = await waitWhile(server, authorization, id, ['planning']);
      const totals = done.plan?.totals;
      if (!totals || totals.add + totals.error !== ROWS || totals.error !== done.counts.rows_with_errors)
        throw new Error(`the plan predicts ${JSON.stringify(totals)} for ${ROWS} rows, ${done.counts.rows_with_errors} of them in error`);
    });
    log("workbook: saving it, then exceljs's streaming write of the same rows...");
    let bytes = 0;
    const saving = await measureJob(server, authorization, async () => {
      const reply = await fetch(`${server.origin}/workstation/workbooks/${id}/file/`, { headers: { authorization } });
      bytes = (await reply.arrayBuffer()).byteLength;
      if (reply.status !== 200) throw new Error(`save answered ${reply.status}`);
    });
    const writeRate = await baselineWrite(join(dir, 'baseline-write.xlsx'), header.length);
    log("workbook: a customer's 100,000-row survey staged, its proposed mapping confirmed (issue 31)...");
    const survey = join(dir, 'survey-100k.xlsx');
    await writeSurvey(survey, ROWS);
    const mapped = await measureMappedStaging(server, authorization, survey, ROWS);
    await stopChild(server.child);
    log('workbook: pages of 200 rows at the top and at the bottom of a 1,000,000-row workbook...');
    const million = await measureMillionPages(config, join(dir, 'million'), cleanup);
    return report({
      readRate,
      writeRate,
      staging,
      validating,
      validateSeconds,
      edits,
      pages,
      planning,
      saving,
      bytes,
      editMs,
      pageMs,
      million,
      proposeMs: median(proposeMs),
      mapped,
    });
  } finally {
    await stopChild(server.child);
  }
}

interface Figures {
  /** Median of three proposals of a mapping for the 100,000-row sheet, in process. */
  proposeMs: number;
  mapped: MappedStaging;
  readRate: number;
  writeRate: number;
  staging: JobFigures;
  validating: JobFigures;
  validateSeconds: number;
  edits: JobFigures;
  pages: JobFigures;
  planning: JobFigures;
  saving: JobFigures;
  bytes: number;
  editMs: number[];
  pageMs: number[];
  million: MillionFigures;
}

function report(f: Figures): WorkbookOutcome {
  const pct = (value: number): string => `${(value * 100).toFixed(1)}%`;
  const check = (subject: string, target: string, measured: string, pass: boolean): Check => ({ subject, target, measured, pass });
  const stageRate = ROWS / f.staging.seconds;
  const saveRate = ROWS / f.saving.seconds;
  const planRate = ROWS / f.planning.seconds;
  const editP99 = percentile(
    [...f.editMs].sort((a, b) => a - b),
    99,
  );
  const pageP99 = percentile(
    [...f.pageMs].sort((a, b) => a - b),
    99,
  );
  const jobs: [string, JobFigures][] = [
    ['staging', f.staging],
    ['first validation', f.validating],
    ['edits', f.edits],
    ['error pages', f.pages],
    ['plan', f.planning],
    ['save', f.saving],
  ];
  const peak = Math.max(...jobs.map(([, job]) => job.peakRssMb));
  const checks: Check[] = [
    check(
      'stage 100k rows',
      `>= ${pct(TARGETS.stageRatio)} of exceljs read`,
      pct(stageRate / f.readRate),
      stageRate / f.readRate >= TARGETS.stageRatio,
    ),
    check(
      'edit one cell, answered with its issues',
      `p99 < ${TARGETS.editP99Ms} ms`,
      `${editP99.toFixed(1)} ms`,
      editP99 < TARGETS.editP99Ms,
    ),
    check('page of 200 rows filtered to errors', `p99 < ${TARGETS.pageP99Ms} ms`, `${pageP99.toFixed(1)} ms`, pageP99 < TARGETS.pageP99Ms),
    check(
      'plan 100k rows',
      `>= ${TARGETS.planRate.toLocaleString('en-US')} rows/s`,
      `${Math.round(planRate).toLocaleString('en-US')} rows/s`,
      planRate >= TARGETS.planRate,
    ),
    check(
      'save 100k rows',
      `>= ${pct(TARGETS.saveRatio)} of exceljs write`,
      pct(saveRate / f.writeRate),
      saveRate / f.writeRate >= TARGETS.saveRatio,
    ),
    check(
      'page 999,800 of 1,000,000 rows',
      "median within 1 ms of the first page's",
      `${f.million.deepP50.toFixed(1)} ms (first page ${f.million.firstP50.toFixed(1)} ms)`,
      f.million.deepP50 <= f.million.firstP50 + 1,
    ),
    check('peak RSS (every step)', `< ${TARGETS.rssMb} MB`, `${peak.toFixed(0)} MB`, peak < TARGETS.rssMb),
    check('propose a mapping for 100k rows', `< ${TARGETS.proposeMs} ms`, `${f.proposeMs.toFixed(0)} ms`, f.proposeMs < TARGETS.proposeMs),
    check(
      "apply a customer sheet's mapping and stage 100k rows",
      `>= ${pct(TARGETS.mappedStageRatio)} of exceljs read`,
      pct(f.mapped.rows / f.mapped.seconds / f.mapped.readRate),
      f.mapped.rows / f.mapped.seconds / f.mapped.readRate >= TARGETS.mappedStageRatio,
    ),
  ];
  const rate = (value: number): string => `${Math.round(value).toLocaleString('en-US')} rows/s`;
  const spread = (values: number[]): string => {
    const sorted = [...values].sort((x, y) => x - y);
    return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
  };
  /** A step's row: its figure, its baseline, and the server's peak RSS (with its parts) and loop p99. */
  const row = (step: string, figure: string, baseline: string, job?: JobFigures): string[] => [
    step,
    figure,
    baseline,
    job ? `${job.peakRssMb.toFixed(0)} (${job.peakParts})` : '',
    job ? job.loopP99Ms.toFixed(1) : '',
  ];
  const table = textTable(
    ['step', 'figure', 'baseline (same run)', 'peak RSS MB', 'loop p99 ms'],
    [
      row('stage 100,000 rows', rate(stageRate), `exceljs read ${rate(f.readRate)}`, f.staging),
      row('first full validation', rate(ROWS / f.validateSeconds), '', f.validating),
      row(`${EDITS} one-cell edits`, spread(f.editMs), '', f.edits),
      row(`${PAGES} error pages of 200`, spread(f.pageMs), '', f.pages),
      row('plan 100,000 rows', rate(planRate), '', f.planning),
      row('1,000,000 rows: page of 200 at the top', `p50 ${f.million.firstP50.toFixed(1)} ms, p99 ${f.million.firstP99.toFixed(1)} ms`, ''),
      row('1,000,000 rows: page of 200 at 999,800', `p50 ${f.million.deepP50.toFixed(1)} ms, p99 ${f.million.deepP99.toFixed(1)} ms`, ''),
      row(`save (${(f.bytes / 1e6).toFixed(1)} MB)`, rate(saveRate), `exceljs write ${rate(f.writeRate)}`, f.saving),
      row('propose a mapping (median of 3, in process)', `${f.proposeMs.toFixed(0)} ms`, ''),
      row(
        "a customer's sheet: mapping applied, 100,000 rows staged",
        rate(f.mapped.rows / f.mapped.seconds),
        `exceljs read ${rate(f.mapped.readRate)}`,
        f.mapped.job,
      ),
    ],
    new Set([3, 4]),
  );
  const lines = checks.map((c) => `${c.pass ? 'PASS' : 'FAIL'}  ${c.subject}: ${c.measured} (target ${c.target})`);
  return { checks, text: `Staged workbook (100,000 LineRelation rows at ${PARIS}, 5% in error):\n${table}\n${lines.join('\n')}` };
}
