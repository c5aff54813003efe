import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanAction, WorkbookInfo, WorkbookIssue, WorkbookLoadInfo, WorkbookPlanRow } from '../../main/service/contract/workbook-api';
import { CLI_PATH } from '../http/serve-process';
import { openTestService, PARIS, q } from '../service/helpers';

/**
 * `workstation validate|plan|load <file.xlsx>`: the compiled CLI (`npm run build:node`) run as a
 * user runs it, on a temp data folder seeded with the demo world, with real .xlsx files.
 */
let folder: string;
let dataDir: string;

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args, '--data', dataDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const HEADER = ['Hierarchy Node', 'Action', 'Device', 'CFT Template', 'Directory Number', 'Alerting Name', 'routePartitionName'];
type Line = [action: string, device: string, template: string, pattern: string, name: string, partition?: string];

/** A compact LineRelation workbook at Paris, written with exceljs, as a file in the temp folder. */
async function lineFile(name: string, lines: Line[]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.addRow(HEADER);
  for (const [action, device, template, pattern, alerting, partition] of lines) {
    sheet.addRow([PARIS, action, device, template, pattern, alerting, partition ?? '']);
  }
  const path = join(folder, name);
  writeFileSync(path, Buffer.from(await workbook.xlsx.writeBuffer()));
  return path;
}

/** The lines at Paris with that number, read through the API with the store closed to the CLI. */
async function linesWith(pattern: string): Promise<{ pkid: string; alertingName?: string }[]> {
  const t = await openTestService({ dataDir });
  try {
    const reply = await t.get(
      `/api/relation/LineRelation/${q(PARIS, `&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`)}`,
    );
    expect(reply.status, reply.text).toBe(200);
    return (reply.body.resources as { meta: { pkid: string }; data: { alertingName?: string } }[]).map((resource) => ({
      pkid: resource.meta.pkid,
      alertingName: resource.data.alertingName,
    }));
  } finally {
    t.close();
  }
}

const stderrLines = (result: CliResult): string[] => result.stderr.split('\n').filter((line) => line !== '');

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'workbook-cli-'));
  dataDir = join(folder, 'data');
  const t = await openTestService({ demo: true, dataDir });
  await t.service.idle();
  t.close();
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('workstation validate', { timeout: 90_000 }, () => {
  it('answers 0 and a summary for a clean workbook, with one progress line per step on stderr', async () => {
    const file = await lineFile('clean.xlsx', [
      ['add', 'SEP00AA00000001', 'Acme Line Defaults', '+33140001050', 'Clean One'],
      ['add', 'SEP00AA00000002', '', '+33140001051', 'Clean Two'],
    ]);
    const result = cli('validate', file);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('2 rows: 0 errors (in 0 rows), 0 warnings (in 0 rows)\n');
    const progress = stderrLines(result);
    expect(progress[0]).toMatch(/^uploading clean\.xlsx \(\d+ bytes\) to sys$/);
    expect(progress).toEqual(expect.arrayContaining([expect.stringMatching(/: validating$/), expect.stringMatching(/: validated$/)]));
    expect(progress).toContain('staged 2 row(s) in 1 sheet(s): LineRelation');
    expect(progress.length).toBeLessThan(10);
    // Validation stores nothing.
    expect(await linesWith('+33140001050')).toEqual([]);
  });

  it('answers 1 with the issue in the table, and in one JSON document with --json', async () => {
    const file = await lineFile('bad-number.xlsx', [
      ['add', 'SEP00AA00000001', '', '+33140001052', 'Good'],
      ['add', 'SEP00AA00000002', '', 'abc', 'Bad'],
    ]);
    const result = cli('validate', file, '--hierarchy', PARIS);
    expect(result.status, result.stderr).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^sheet\s+row\s+column\s+severity\s+code\s+message$/);
    expect(lines[1]).toMatch(
      /^LineRelation\s+3\s+E\s+error\s+bad-pattern\s+Row 3, Directory Number \(E3\): 'abc' is not a directory number/,
    );
    expect(lines.at(-1)).toBe('2 rows: 1 error (in 1 row), 0 warnings (in 0 rows)');

    const json = cli('validate', file, '--json');
    expect(json.status).toBe(1);
    const document = JSON.parse(json.stdout) as {
      command: string;
      exit_code: number;
      workbook: WorkbookInfo;
      issues: (WorkbookIssue & { sheet_name: string })[];
    };
    expect(document.command).toBe('validate');
    expect(document.exit_code).toBe(1);
    expect(document.workbook.counts).toMatchObject({ rows: 2, errors: 1, warnings: 0 });
    expect(document.issues).toEqual([
      expect.objectContaining({ sheet_name: 'LineRelation', row: 3, column: 'E', severity: 'error', code: 'bad-pattern' }),
    ]);
  });

  it('shows the suggestion of an issue that has one', async () => {
    const file = await lineFile('taken.xlsx', [['add', 'SEP00AA00000003', '', '+33140001001', 'Taken']]);
    const result = cli('validate', file);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/number-not-available .*\(suggestion: Use \+331400010\d\d, the next Available number\)/);
  });

  it('answers 2 for a missing file, a file that is not .xlsx, a broken .xlsx, an unknown hierarchy and bad arguments', async () => {
    const missing = cli('validate', join(folder, 'nothing-here.xlsx'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read');
    expect(missing.stderr).toContain('no such file');
    expect(missing.stdout).toBe('');

    const text = join(folder, 'lines.csv');
    writeFileSync(text, 'Hierarchy Node,Action\n');
    const csv = cli('validate', text);
    expect(csv.status).toBe(2);
    expect(csv.stderr).toContain('is not an .xlsx workbook');

    const broken = join(folder, 'broken.xlsx');
    writeFileSync(broken, 'this is no workbook');
    const notZip = cli('validate', broken, '--json');
    expect(notZip.status).toBe(2);
    expect(notZip.stderr).toMatch(/is not an \.xlsx workbook \(it is a text file/);
    expect(JSON.parse(notZip.stdout)).toMatchObject({
      command: 'validate',
      exit_code: 2,
      error: expect.stringMatching(/is not an \.xlsx workbook \(it is a text file/),
    });

    const clean = await lineFile('clean-elsewhere.xlsx', [['add', 'SEP00AA00000001', '', '+33140001054', 'Nowhere']]);
    const nowhere = cli('validate', clean, '--hierarchy', 'sys.hcs.Nowhere');
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toMatch(/^workstation validate: .*Nowhere/m);

    expect(cli('validate').status).toBe(2);
    expect(cli('validate', clean, '--bogus').status).toBe(2);
  });
});

describe('workstation plan', { timeout: 90_000 }, () => {
  it('answers the plan of a mixed workbook, its totals matching its rows', async () => {
    const file = await lineFile('mixed.xlsx', [
      ['add', 'SEP00AA00000003', '', '+33140001053', 'Planned Add'],
      ['modify', 'SEP00AA00000000', '', '+33140001000', 'Renamed', 'Paris-PT'],
      ['add', 'SEP00AA00000004', '', '+33140001001', 'Number Taken'],
      ['add', 'SEP00AA00000004', '', 'xyz', 'Bad Number'],
    ]);
    const result = cli('plan', file, '--json');
    expect(result.status, result.stderr).toBe(1);
    const document = JSON.parse(result.stdout) as {
      exit_code: number;
      totals: Record<PlanAction, number>;
      rows: (WorkbookPlanRow & { sheet_name: string })[];
    };
    expect(document.exit_code).toBe(1);
    expect(document.rows).toHaveLength(4);
    const counted = { add: 0, modify: 0, delete: 0, unchanged: 0, conflict: 0, error: 0 };
    for (const row of document.rows) counted[row.action] += 1;
    expect(document.totals).toEqual(counted);
    expect(document.rows.map((row) => [row.row, row.action])).toEqual([
      [2, 'add'],
      [3, 'modify'],
      [4, 'conflict'],
      [5, 'error'],
    ]);
    const modify = document.rows[1];
    expect(modify.target_pkid).toBeTruthy();
    expect(modify.changes).toContainEqual(expect.objectContaining({ field: 'alertingName', new: 'Renamed' }));

    const table = cli('plan', file);
    expect(table.status).toBe(1);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^sheet\s+row\s+action\s+target pkid\s+changes\s+message$/);
    expect(lines.find((line) => /^LineRelation\s+3\s+modify\s/.test(line))).toMatch(/alertingName: ".*" -> "Renamed"/);
    expect(lines.at(-1)).toBe('4 rows: 1 add, 1 modify, 0 delete, 0 unchanged, 1 conflict, 1 error');
    // Planning stores nothing.
    expect(await linesWith('+33140001053')).toEqual([]);
  });

  it('answers 0 for a workbook with nothing in error or conflict', async () => {
    const file = await lineFile('plan-clean.xlsx', [['add', 'SEP00AA00000005', '', '+33140001055', 'Plan Clean']]);
    const result = cli('plan', file);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 row: 1 add, 0 modify, 0 delete, 0 unchanged, 0 conflict, 0 error');
  });
});

describe('workstation load', { timeout: 90_000 }, () => {
  it('loads a clean workbook: 0, the lines exist, few progress lines', async () => {
    const file = await lineFile('load-clean.xlsx', [
      ['add', 'SEP00AA00000001', 'Acme Line Defaults', '+33140001060', 'Loaded One'],
      ['add', 'SEP00AA00000002', '', '+33140001061', 'Loaded Two'],
    ]);
    const result = cli('load', file, '--json');
    expect(result.status, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as {
      exit_code: number;
      transaction_id: string;
      load: WorkbookLoadInfo;
      rows: { row: number; outcome: { status: string; pkid: string | null; transaction_id: string } | null }[];
    };
    expect(document.exit_code).toBe(0);
    expect(document.load).toMatchObject({ total: 2, loaded: 2, failed: 0, conflicts: 0, not_run: 0 });
    expect(document.rows.map((row) => [row.row, row.outcome?.status])).toEqual([
      [2, 'loaded'],
      [3, 'loaded'],
    ]);
    const [one] = await linesWith('+33140001060');
    expect(one).toMatchObject({ alertingName: 'Loaded One' });
    expect(document.rows[0].outcome?.pkid).toBe(one.pkid);
    expect(await linesWith('+33140001061')).toHaveLength(1);
    expect(stderrLines(result).length).toBeLessThan(20);
    expect(result.stderr).toMatch(/kept in the store/);
  });

  it('refuses (2) a workbook with errors unless --allow-errors, then loads what it can (1)', async () => {
    const file = await lineFile('load-errors.xlsx', [
      ['add', 'SEP00AA00000006', '', '+33140001062', 'Will Load'],
      ['add', 'SEP00AA00000006', '', 'not-a-number', 'Will Fail'],
    ]);
    const refused = cli('load', file);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/1 error\(s\) in 1 row\(s\): run 'workstation validate'/);
    expect(refused.stdout).toBe('');
    expect(await linesWith('+33140001062')).toEqual([]);

    const allowed = cli('load', file, '--allow-errors');
    expect(allowed.status, allowed.stderr).toBe(1);
    const lines = allowed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^sheet\s+row\s+status\s+transaction id\s+pkid\s+message$/);
    // By default only the rows that did not load, then the summary.
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^LineRelation\s+3\s+failed\s/);
    expect(lines[2]).toMatch(/^2 rows: 1 loaded, 1 failed, 0 conflicts, 0 not run \(transaction \S+\)$/);
    expect(await linesWith('+33140001062')).toHaveLength(1);
  });
});

describe('what the commands leave in the store', () => {
  it('validate and plan remove their workbook; load keeps its, with its outcomes', async () => {
    const t = await openTestService({ dataDir });
    try {
      const reply = await t.get('/workstation/workbooks/');
      expect(reply.status, reply.text).toBe(200);
      const kept = (reply.body.workbooks as WorkbookInfo[]).map((workbook) => [workbook.name, workbook.state]).sort();
      expect(kept).toEqual([
        ['load-clean.xlsx', 'loaded'],
        ['load-errors.xlsx', 'failed'],
      ]);
    } finally {
      t.close();
    }
  });
});
