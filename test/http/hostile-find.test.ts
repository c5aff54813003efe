import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookEditResult, WorkbookInfo, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { ADMIN, ApiClient, type Credentials } from './api-client';
import { expectNotHeld, whileHostile } from './others-latency';
import { cleanupServers, startServe, tempDataDir, type ServeProcess } from './serve-process';

/**
 * Issue 30, findings 1 and 2, over real HTTP against server mode: one admin's find or replace
 * with a backtracking pattern (`^(a+)+$` over cells of 25 `a` and a `!`), or a replace whose
 * range runs to row 415,286,936 of a 20-row sheet, held the service's one thread for seconds,
 * and so every other user. While each runs, another admin's requests are measured and printed
 * (p50, p99, max): none may wait as long as the old code held everyone (`HELD_MS`), and with
 * `WORKSTATION_STRICT_TIMING=1` (a quiet machine, as the bench runs) their p99 must stay under
 * 50 ms. Wall-clock latency on a machine shared with the rest of the suite is not a measure of
 * the service: an absolute 50 ms there fails for the neighbours' sake, so the suite asserts what
 * cannot pass while the thread is held, and prints the figures. Each hostile request gets its
 * answer (or a 400 saying why not), and the service goes on.
 */
const PARIS = 'sys.hcs.Telco.Acme.Paris';
const OTHER: Credentials = { username: 'other.admin', password: 'other-admin-pw-1' };
/** 28 `a`: the old code spent seconds on each such cell (2^28 steps), far past HELD_MS. */
const HOSTILE_CELL = `${'a'.repeat(28)}!`;
/** Longer than any wait a loaded CI machine gives the fixed code; shorter than the old code's hold. */
const HELD_MS = 1500;

let server: ServeProcess;
let api: ApiClient;
let other: ApiClient;
let workbook: WorkbookInfo;

/** A 20-row LineRelation sheet (compact layout), three of whose alerting names are the hostile text. */
async function sheetBytes(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('LineRelation');
  sheet.addRow(['pattern', 'alertingName']);
  for (let i = 0; i < 20; i += 1) sheet.addRow([`+3314000${String(i).padStart(4, '0')}`, i % 7 === 0 ? HOSTILE_CELL : `Line ${i}`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

beforeAll(async () => {
  server = await startServe({ dataDir: tempDataDir(), seed: 'demo' });
  api = new ApiClient(server.url, ADMIN);
  other = new ApiClient(server.url, OTHER);
  const made = await api.post(`/api/data/User/?hierarchy=sys`, { data: { ...OTHER, role: 'admin' } });
  expect(made.status, made.text).toBe(200);
  expect((await api.upload('hostile.xlsx', await sheetBytes(), PARIS)).status).toBe(200);
  const staged = await api.post<{ workbook: WorkbookInfo }>('/workstation/workbooks/', {
    from: 'upload',
    file: 'hostile.xlsx',
    hierarchy: PARIS,
  });
  expect(staged.status, staged.text).toBe(202);
  for (let tries = 0; ; tries += 1) {
    const now = await api.get<{ workbook: WorkbookInfo }>(`/workstation/workbooks/${staged.body.workbook.id}/`);
    workbook = now.body.workbook;
    if (workbook.state !== 'staging' && workbook.state !== 'validating') break;
    expect(tries).toBeLessThan(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The other admin's requests once before any is timed: their first answers compile code paths.
  for (const path of OTHER_PATHS) for (let i = 0; i < 5; i += 1) expect((await other.get(path)).status).toBe(200);
}, 60_000);
afterAll(cleanupServers);

const OTHER_PATHS = [`/api/data/InternalNumberInventory/?hierarchy=sys.hcs.Telco.Acme&limit=5`, '/workstation/workbooks/'];

const rowsUrl = (find: string): string =>
  `/workstation/workbooks/${workbook.id}/sheets/0/rows/?find=${encodeURIComponent(find)}&regex=true&limit=100`;

const revision = async (): Promise<number> =>
  (await api.get<{ workbook: WorkbookInfo }>(`/workstation/workbooks/${workbook.id}/`)).body.workbook.revision;

async function replaceEdit(edit: Record<string, unknown>): Promise<{ status: number; body: WorkbookEditResult & { code?: string } }> {
  const reply = await api.post<WorkbookEditResult & { code?: string }>(`/workstation/workbooks/${workbook.id}/edits/`, {
    revision: await revision(),
    edit: { op: 'replace', replace: 'x', regex: true, ...edit },
  });
  return { status: reply.status, body: reply.body };
}

describe('a hostile pattern or range holds nobody else', () => {
  it('measures the other admin alone first (the baseline printed beside the figures below)', async () => {
    expectNotHeld(await whileHostile(other, OTHER_PATHS, 'baseline (no hostile request)', async () => 0), HELD_MS);
  }, 60_000);

  it('finds rows with a backtracking pattern in bounded time: the answer is right, nobody else is held (p99 printed)', async () => {
    for (const find of ['^(a+)+$', '((\\w+)+)+!', '(a|aa)+$']) {
      const figures = await whileHostile(other, OTHER_PATHS, `find ${find}`, async () => (await api.get(rowsUrl(find))).status);
      expect(figures.statuses.every((status) => status === 200)).toBe(true);
      expectNotHeld(figures, HELD_MS);
    }
    // The answers are those of the pattern: three cells end in `!`, none is only `a`.
    expect((await api.get<WorkbookRowPage>(rowsUrl('^(a+)+!$'))).body.total).toBe(3);
    expect((await api.get<WorkbookRowPage>(rowsUrl('^(a+)+$'))).body.total).toBe(0);
  }, 120_000);

  it('replaces with a backtracking pattern in bounded time, inside the edit, while nobody else is held (p99 printed)', async () => {
    const figures = await whileHostile(other, OTHER_PATHS, 'replace ^(a+)+$', async () => (await replaceEdit({ find: '^(a+)+$' })).status);
    expect(figures.statuses.every((status) => status === 200)).toBe(true);
    expectNotHeld(figures, HELD_MS);
    const done = await replaceEdit({ find: '^(a+)+(!)$', replace: 'b$2' });
    expect(done.status).toBe(200);
    expect(done.body.changed).toBe(3);
    expect((await api.get<WorkbookRowPage>(rowsUrl('^b!$'))).body.total).toBe(3);
  }, 120_000);

  it('refuses a replace range past the sheet at once (to_index 415,286,936 and 1e15 on 20 rows), changing nothing', async () => {
    const before = await revision();
    for (const to_index of [415_286_936, 1e15]) {
      const figures = await whileHostile(other, OTHER_PATHS, `replace to_index ${to_index}`, async () => {
        const reply = await replaceEdit({ find: 'Line', within: { sheet: 0, from_index: 0, to_index } });
        expect(reply.body.code).toBe('bad-edit');
        return reply.status;
      });
      expect(figures.statuses.every((status) => status === 400)).toBe(true);
      expectNotHeld(figures, HELD_MS);
    }
    expect(await revision()).toBe(before);
    // A range within the sheet still works.
    const done = await replaceEdit({ find: '^Line 1$', replace: 'Line one', within: { sheet: 0, from_index: 0, to_index: 19 } });
    expect(done.status).toBe(200);
    expect(done.body.changed).toBe(1);
  }, 120_000);

  it('scans a big sheet for a text in turns: a find over 60,000 rows holds nobody else', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('LineRelation');
    sheet.addRow(['pattern', 'alertingName']);
    for (let i = 0; i < 60_000; i += 1) sheet.addRow([`+3315${String(i).padStart(7, '0')}`, `Big line ${i}`]);
    expect((await api.upload('big.xlsx', Buffer.from(await book.xlsx.writeBuffer()), PARIS)).status).toBe(200);
    const staged = await api.post<{ workbook: WorkbookInfo }>('/workstation/workbooks/', {
      from: 'upload',
      file: 'big.xlsx',
      hierarchy: PARIS,
    });
    expect(staged.status, staged.text).toBe(202);
    const id = staged.body.workbook.id;
    for (let tries = 0; ; tries += 1) {
      const state = (await api.get<{ workbook: WorkbookInfo }>(`/workstation/workbooks/${id}/`)).body.workbook.state;
      if (state !== 'staging' && state !== 'validating') break;
      expect(tries).toBeLessThan(1200);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const started = performance.now();
    const figures = await whileHostile(other, OTHER_PATHS, 'find a text in 60,000 rows', async () => {
      const reply = await api.get<WorkbookRowPage>(
        `/workstation/workbooks/${id}/sheets/0/rows/?find=${encodeURIComponent('no such text')}`,
      );
      expect(reply.body.total).toBe(0);
      return reply.status;
    });
    console.log(`find over 60,000 rows: ${figures.statuses.length} scans in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(figures.statuses.every((status) => status === 200)).toBe(true);
    expectNotHeld(figures, HELD_MS);
  }, 300_000);

  it('refuses what it cannot bound with a 400 that says why: look-around, back-references, huge programs, costly cells', async () => {
    for (const find of ['(?=a)a', '(a)\\1', 'a{1000}']) {
      const reply = await api.get<{ code: string; message: string }>(rowsUrl(find));
      expect(reply.status, reply.text).toBe(400);
      expect(['validation-failed', 'pattern-too-costly']).toContain(reply.body.code);
    }
    // A cell of 32,767 characters against a 300-step program: too costly a cell, said so.
    const first = (await api.get<WorkbookRowPage>(`/workstation/workbooks/${workbook.id}/sheets/0/rows/?limit=1`)).body.rows[0];
    const column = workbook.sheets[0].columns.find((entry) => entry.name === 'alertingName')?.id as number;
    const long = await api.post(`/workstation/workbooks/${workbook.id}/edits/`, {
      revision: await revision(),
      edit: { op: 'set', sheet: 0, cells: [{ row_id: first.id, column_id: column, value: 'a'.repeat(32_767) }] },
    });
    expect(long.status, long.text).toBe(200);
    const costly = await api.get<{ code: string; message: string }>(rowsUrl('\\w{300}'));
    expect(costly.status, costly.text).toBe(400);
    expect(costly.body.code).toBe('pattern-too-costly');
    expect(costly.body.message).toContain('32,767 characters');
  }, 60_000);
});
