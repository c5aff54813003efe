import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanTotals, WorkbookInfo, WorkbookLoadInfo } from '../../main/service/contract/workbook-api';
import { CLI_PATH } from '../http/serve-process';
import { openTestService, PARIS, q } from '../service/helpers';

/**
 * `workstation revert <transaction id> [--plan-only] [--json]`: the compiled CLI (`npm run
 * build:node`) on a temp data folder seeded with the demo world. A file loaded by `workstation
 * load` is reverted: the plan alone first (nothing changed, exit 0), then run (every row
 * reverted, exit 0, the lines as before). Reverted again, every row is in conflict or error
 * (exit 1, nothing run twice); an unknown transaction is refused (exit 2).
 */
let folder: string;
let dataDir: string;

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_PATH, ...args, '--data', dataDir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function lineFile(name: string, rows: string[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.addRow(['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name']);
  for (const row of rows) sheet.addRow([PARIS, ...row]);
  const path = join(folder, name);
  writeFileSync(path, Buffer.from(await workbook.xlsx.writeBuffer()));
  return path;
}

/** The alerting names of the lines at Paris with these numbers, read with the store closed to the CLI. */
async function names(...patterns: string[]): Promise<(string | undefined)[]> {
  const t = await openTestService({ dataDir });
  try {
    const found: (string | undefined)[] = [];
    for (const pattern of patterns) {
      const query = `&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(pattern)}`;
      const reply = await t.get(`/api/relation/LineRelation/${q(PARIS, query)}`);
      found.push((reply.body.resources as { data: { alertingName?: string } }[])[0]?.data.alertingName);
    }
    return found;
  } finally {
    t.close();
  }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'revert-cli-'));
  dataDir = join(folder, 'data');
  const t = await openTestService({ demo: true, dataDir });
  await t.service.idle();
  t.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('workstation revert', { timeout: 120_000 }, () => {
  it('prints the plan with --plan-only, reverts the load without it, and refuses what it cannot revert', async () => {
    const file = await lineFile('to-revert.xlsx', [
      ['add', '+33140001060', 'Paris-PT', 'Added By Mistake'],
      ['modify', '+33140001000', 'Paris-PT', 'Wrong Name'],
      ['delete', '+33140001002', 'Paris-PT', ''],
    ]);
    const loaded = cli('load', file, '--hierarchy', PARIS, '--json');
    expect(loaded.status, loaded.stderr).toBe(0);
    const loadId = (JSON.parse(loaded.stdout) as { transaction_id: string }).transaction_id;
    const before = await names('+33140001060', '+33140001000', '+33140001002');
    expect(before).toEqual(['Added By Mistake', 'Wrong Name', undefined]);

    const plan = cli('revert', loadId, '--plan-only', '--json');
    expect(plan.status, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { exit_code: number; plan: { totals: PlanTotals }; workbook: WorkbookInfo };
    expect(planned.plan.totals).toMatchObject({ add: 1, modify: 1, delete: 1, conflict: 0, error: 0 });
    expect(planned.workbook.name).toMatch(/^Revert of to-revert\.xlsx/);
    expect(await names('+33140001060', '+33140001000', '+33140001002')).toEqual(before);

    const reverted = cli('revert', loadId);
    expect(reverted.status, reverted.stderr).toBe(0);
    expect(reverted.stdout).toMatch(/3 rows: 1 add, 1 modify, 1 delete, 0 unchanged, 0 conflict, 0 error/);
    expect(reverted.stderr).toMatch(/loading 3 row\(s\) in transaction/);
    expect(await names('+33140001060', '+33140001000', '+33140001002')).toEqual([undefined, 'Alice Martin', 'Bruno Smith']);

    // Reverted twice: what the first revert put back is what the load's rows no longer find.
    const again = cli('revert', loadId, '--json');
    expect(again.status, again.stderr).toBe(1);
    const second = JSON.parse(again.stdout) as { plan: { totals: PlanTotals }; load: WorkbookLoadInfo };
    expect(second.plan.totals.conflict + second.plan.totals.error).toBe(3);
    expect(second.load.loaded).toBe(0);
    expect(await names('+33140001060', '+33140001000', '+33140001002')).toEqual([undefined, 'Alice Martin', 'Bruno Smith']);

    const unknown = cli('revert', '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/was not found/);
    expect(cli('revert', loadId, '--profile', 'Remote').status).toBe(2);
  });
});
