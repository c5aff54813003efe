import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpecCell } from '../fixtures/fixture-specs';
import { readWorkbook } from '../../main/service/sheets/read-workbook';
import { validateWorkbook } from '../../main/service/sheets/validate-workbook';
import { ACME, openTestService, PARIS, type TestService } from './helpers';
import { compactWorkbook, issuesOf, uploadAndValidate } from './bulk-validate-helpers';

/** Many rows at once: every error found in one pass, and big workbooks validated in bounded time and memory. */
let t: TestService;
const temp = mkdtempSync(join(tmpdir(), 'bulk-validate-mass-'));
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => {
  t.close();
  rmSync(temp, { recursive: true, force: true });
});

const HEADER = [
  'Hierarchy Node',
  'Action',
  'Device',
  'CFT Template',
  'Directory Number',
  'Alerting Name',
  'routePartitionName',
  'rejectAnonymousCall',
];

/** One row with exactly one error of each kind in turn; every fifth row is clean. */
const KINDS: [string, (i: number) => SpecCell[]][] = [
  ['bad-pattern', (i) => [PARIS, null, null, null, `+33 1 40 ${i}`, 'Spaces', null, null]],
  ['too-long', (i) => [PARIS, null, null, null, `+3397${i}`, 'z'.repeat(51), null, null]],
  ['number-not-available', (i) => [PARIS, null, null, null, `+331400010${85 + (i % 15)}`, 'Taken', null, null]],
  ['device-not-found', (i) => [PARIS, null, `SEPNONE${i}`, null, `+3396${i}`, 'No phone', null, null]],
  ['hierarchy-not-found', (i) => [`${ACME}.Nowhere${i}`, null, null, null, `+3395${i}`, 'Lost', null, null]],
  ['template-not-found', (i) => [PARIS, null, null, `Missing ${i}`, `+3394${i}`, 'No template', null, null]],
  ['duplicate-in-store', () => [PARIS, null, null, null, '+33140001007', 'Twice', 'Paris-PT', null]],
  ['bad-action', (i) => [PARIS, 'replace', null, null, `+3393${i}`, 'Odd', null, null]],
  ['wrong-type', (i) => [PARIS, null, null, null, `+3392${i}`, 'Flag', null, 'maybe']],
  ['target-not-found', (i) => [PARIS, 'modify', null, null, `+3391${i}`, 'Ghost', 'X', null]],
];

describe('a workbook of many mistakes', () => {
  it('reports all 200 errors in one pass, each on its row with its code', async () => {
    const rows: SpecCell[][] = [];
    const expected = new Map<number, string>();
    for (let i = 0; i < 250; i += 1) {
      const excelRow = i + 2;
      if (i % 5 === 4) {
        rows.push([PARIS, null, null, null, `+3398${i}`, `Clean ${i}`, null, null]);
        continue;
      }
      const [code, make] = KINDS[expected.size % KINDS.length];
      rows.push(make(i));
      expected.set(excelRow, code);
    }
    const reply = await uploadAndValidate(t, 'mistakes.xlsx', await compactWorkbook('LineRelation', HEADER, rows), PARIS);
    expect(reply.status).toBe(200);
    const issues = issuesOf(reply.body);
    expect(reply.body.summary.errors).toBe(200);
    expect(issues).toHaveLength(200);
    expect(new Map(issues.map((issue) => [issue.row, issue.code]))).toEqual(expected);
    expect(issues.every((issue) => issue.message.startsWith(`Row ${issue.row}`))).toBe(true);
    const statuses = reply.body.sheets[0].rows.map((row: { status: string }) => row.status);
    expect(statuses.filter((status: string) => status === 'ok')).toHaveLength(50);
  });

  it('lists the first 10,000 issues and counts every one', async () => {
    const rows = Array.from({ length: 10_050 }, (_, i): SpecCell[] => [PARIS, null, null, null, `bad number ${i}`, null, null, null]);
    const reply = await uploadAndValidate(t, 'too-many.xlsx', await compactWorkbook('LineRelation', HEADER, rows), PARIS);
    expect(reply.body.summary.errors).toBe(10_050);
    const issues = reply.body.sheets[0].issues;
    expect(issues).toHaveLength(10_001);
    expect(issues[10_000]).toMatchObject({
      row: 0,
      code: 'issues-not-listed',
      message: 'Only the first 10,000 of 10,050 issues are listed: correct these and validate again.',
    });
  });
});

async function bigWorkbook(rows: number): Promise<string> {
  const path = join(temp, `big-${rows}.xlsx`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = workbook.addWorksheet('LineRelation');
  sheet.addRow(HEADER.slice(0, 6)).commit();
  for (let i = 0; i < rows; i += 1) sheet.addRow([PARIS, null, null, null, `+3390${String(i).padStart(7, '0')}`, `User ${i}`]).commit();
  sheet.commit();
  await workbook.commit();
  return path;
}

describe('a big workbook', () => {
  it('validates 100,000 rows in bounded memory', async () => {
    const path = await bigWorkbook(100_000);
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 25);
    const reply = await uploadAndValidate(t, 'big.xlsx', readFileSync(path), PARIS);
    clearInterval(sampler);
    expect(reply.status).toBe(200);
    expect(reply.body.summary).toEqual({ errors: 0, warnings: 0, add: 100_000, modify: 0, delete: 0 });
    // Rows are not kept: what grows is the answer (a prediction per row) and the overlay of keys.
    expect(peak - before).toBeLessThan(300 * 1024 * 1024);
    // How long it takes is the bench's business; slow machines get room here.
  }, 120_000);
});

describe('a workbook big enough for a reader thread', () => {
  it('answers exactly as the same rows validated on one thread: prechecked rows (template, defaults, value problems) included', async () => {
    // Over 512 KB, so the rows are read, and added rows prechecked, on a thread of their own;
    // the reference reads the same file whole and validates it without that thread.
    const header = [...HEADER, 'description'];
    const rows: SpecCell[][] = [];
    for (let i = 0; i < 6000; i += 1) {
      const noise = ['a', 'b', 'c'].map((salt) => createHash('sha256').update(`${salt}${i}`).digest('base64')).join('');
      const kind = i % 13;
      const row: SpecCell[] =
        kind < KINDS.length
          ? KINDS[kind][1](i)
          : kind === 10
            ? [PARIS, null, null, 'Acme Line Defaults', `+3389${String(i).padStart(6, '0')}`, `Templated ${i}`, null, null]
            : kind === 11
              ? [PARIS, null, null, 'Acme Line Defaults', `+3388${String(i % 50).padStart(6, '0')}`, `Twice ${i % 50}`, null, null]
              : [PARIS, null, null, null, `+3387${String(i).padStart(6, '0')}`, null, null, null];
      rows.push([...row, noise]);
    }
    const bytes = await compactWorkbook('LineRelation', header, rows);
    expect(bytes.length).toBeGreaterThan(512 * 1024);
    const reply = await uploadAndValidate(t, 'threaded.xlsx', bytes, PARIS);
    expect(reply.status).toBe(200);
    const path = join(temp, 'threaded.xlsx');
    writeFileSync(path, bytes);
    const store = t.service.store;
    const admin = store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
    const principal = { pkid: admin.pkid, username: 'admin', role: 'admin' as const, hierarchyPkid: admin.hierarchyPkid };
    const paris = store.nodes.getByPath(PARIS);
    if (!paris) throw new Error('no Paris in the demo world');
    const reference = validateWorkbook(store, { principal, callerPath: 'sys' }, paris, await readWorkbook(path, 'threaded.xlsx'));
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(reference)));
    // The mix is what it should be: every kind of mistake, and templated rows taken as clean.
    expect(reply.body.summary.errors).toBeGreaterThan(4000);
    expect(reply.body.summary.add).toBeGreaterThan(5000);
  }, 120_000);
});
