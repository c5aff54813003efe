import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkbookAnswer, WorkbookInfo, WorkbookLoadAnswer, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { ApiClient } from './api-client';
import { cleanupServers, startServe, tempDataDir } from './serve-process';
import { allSubTransactions } from './transactions-api';

/**
 * SIGKILL in the middle of loading a staged workbook of 20,000 rows, a restart on the same data
 * folder, then "load the rest": every row is in the store exactly once, and each row's outcome
 * on the workbook is its sub-transaction's (status, id, pkid).
 */
afterAll(cleanupServers);

const ROWS = 20_000;
const SITE = 'sys.WorkbookKillSite';
const patternOf = (i: number): string => `+4972${String(1_000_000 + i)}`;

async function writeWorkbook(file: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = writer.addWorksheet('LineRelation');
  sheet.addRow(['Hierarchy Node', 'Directory Number', 'Alerting Name']).commit();
  for (let i = 0; i < ROWS; i += 1) sheet.addRow([SITE, patternOf(i), `Kill Test ${i}`]).commit();
  await writer.commit();
}

async function waitFor(api: ApiClient, id: string, done: (info: WorkbookInfo) => boolean): Promise<WorkbookInfo> {
  for (let tries = 0; ; tries += 1) {
    const info = (await api.get<WorkbookAnswer>(`/workstation/workbooks/${id}/`)).body.workbook;
    if (done(info)) return info;
    if (tries > 6000) throw new Error(`workbook ${id} stayed ${info.state}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function allRows(api: ApiClient, id: string): Promise<WorkbookRowPage['rows']> {
  const rows: WorkbookRowPage['rows'] = [];
  for (let skip = 0; skip < ROWS; skip += 5000) {
    const page = await api.get<WorkbookRowPage>(`/workstation/workbooks/${id}/sheets/0/rows/?skip=${skip}&limit=5000`);
    expect(page.status, page.text).toBe(200);
    rows.push(...page.body.rows);
  }
  return rows;
}

describe('a staged workbook load killed half-way', () => {
  it('loads every row exactly once after a restart and "load the rest", with outcomes that match the transactions', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir });
    const api = new ApiClient(first.url);
    expect(
      (await api.post('/api/data/HierarchyNode/?hierarchy=sys', { data: { name: 'WorkbookKillSite', node_type: 'Site' } })).status,
    ).toBe(200);
    const file = join(dataDir, 'kill.xlsx');
    await writeWorkbook(file);
    const uploaded = await api.upload('kill.xlsx', readFileSync(file), SITE);
    expect(uploaded.status, uploaded.text).toBe(200);
    const created = await api.post<WorkbookAnswer>('/workstation/workbooks/', { from: 'upload', file: 'kill.xlsx', hierarchy: SITE });
    expect(created.status, created.text).toBe(202);
    const id = created.body.workbook.id;
    const staged = await waitFor(api, id, (info) => info.state !== 'staging' && info.state !== 'validating');
    expect(staged.state, JSON.stringify(staged)).toBe('validated');
    const started = await api.post<WorkbookLoadAnswer>(`/workstation/workbooks/${id}/load/`, { revision: staged.revision });
    expect(started.status, started.text).toBe(202);
    expect(started.body.rows).toBe(ROWS);
    const loadedSoFar = async (): Promise<number> => api.total('relation/LineRelation', SITE);
    for (let loaded = 0; loaded < 300; loaded = await loadedSoFar()) await new Promise((resolve) => setTimeout(resolve, 50));
    await first.kill();

    const second = await startServe({ dataDir });
    const again = new ApiClient(second.url);
    const cut = await waitFor(again, id, (info) => info.state !== 'loading');
    expect(cut.state).toBe('failed');
    const before = cut.load;
    console.log(`[workbook-load-kill] ${before?.loaded} of ${ROWS} rows loaded before the kill, ${before?.not_run} never ran`);
    expect(before?.loaded).toBeGreaterThan(0);
    expect((before?.loaded ?? 0) + (before?.not_run ?? 0)).toBe(ROWS);
    expect(await again.total('relation/LineRelation', SITE)).toBe(before?.loaded);

    const rest = await again.post<WorkbookLoadAnswer>(`/workstation/workbooks/${id}/load/`, { revision: cut.revision });
    expect(rest.status, rest.text).toBe(202);
    expect(rest.body.rows).toBe(before?.not_run);
    const finished = await waitFor(again, id, (info) => info.state !== 'loading');
    expect(finished.state).toBe('loaded');
    expect(finished.load).toMatchObject({ total: ROWS, loaded: ROWS, failed: 0, conflicts: 0, not_run: 0 });

    // Every row once in the store, and each outcome is its sub-transaction's.
    const lines = await again.listAll<{ pattern: string }>('relation/LineRelation', SITE);
    expect(lines).toHaveLength(ROWS);
    expect(new Set(lines.map((line) => line.data.pattern)).size).toBe(ROWS);
    const pkids = new Map(lines.map((line) => [line.data.pattern, line.meta.pkid]));
    const subs = new Map<string, string>();
    for (const parentId of [started.body.transaction_id, rest.body.transaction_id]) {
      for (const sub of await allSubTransactions(again, parentId)) subs.set(sub.transaction_id, sub.status);
    }
    const rows = await allRows(again, id);
    expect(rows).toHaveLength(ROWS);
    rows.forEach((row, index) => {
      expect(row.outcome?.status).toBe('loaded');
      expect(subs.get(row.outcome?.transaction_id ?? '')).toBe('Success');
      expect(row.outcome?.pkid).toBe(pkids.get(patternOf(index)));
    });
  }, 240_000);
});
