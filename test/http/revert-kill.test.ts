import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RevertAnswer, RevertLink } from '../../main/service/contract/revert-api';
import type { WorkbookAnswer, WorkbookInfo, WorkbookLoadAnswer, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { ApiClient, type Answer } from './api-client';
import { cleanupServers, startServe, tempDataDir } from './serve-process';
import { allSubTransactions } from './transactions-api';

/**
 * Issue 33's kill test: a load of 20,000 line relations is reverted over HTTP (`serve` on
 * 127.0.0.1); the revert's run is killed (SIGKILL) half-way, the service started again on the
 * same data folder, and the revert run again ("load the rest"): every row is reverted exactly
 * once (each relation deleted by one sub-transaction of one of the two runs, none refused for
 * having gone already), and the load, its revert and the revert's two runs lead to each other.
 */
afterAll(cleanupServers);

const ROWS = 20_000;
const SITE = 'sys.RevertKillSite';
const patternOf = (i: number): string => `+4973${String(1_000_000 + i)}`;

async function writeWorkbook(file: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = writer.addWorksheet('LineRelation');
  sheet.addRow(['Hierarchy Node', 'Directory Number', 'Alerting Name']).commit();
  for (let i = 0; i < ROWS; i += 1) sheet.addRow([SITE, patternOf(i), `Revert Kill ${i}`]).commit();
  await writer.commit();
}

async function waitFor(api: ApiClient, id: string, done: (info: WorkbookInfo) => boolean): Promise<WorkbookInfo> {
  for (let tries = 0; ; tries += 1) {
    const info = (await api.get<WorkbookAnswer>(`/workstation/workbooks/${id}/`)).body.workbook;
    if (done(info)) return info;
    if (tries > 9000) throw new Error(`workbook ${id} stayed ${info.state}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function load(api: ApiClient, info: WorkbookInfo): Promise<WorkbookLoadAnswer> {
  const started = await api.post<WorkbookLoadAnswer>(`/workstation/workbooks/${info.id}/load/`, { revision: info.revision });
  expect(started.status, started.text).toBe(202);
  return started.body;
}

/** Every row of the revert workbook's sheet with its outcome, read on by index as the app does. */
async function outcomes(api: ApiClient, id: string): Promise<WorkbookRowPage['rows']> {
  const rows: WorkbookRowPage['rows'] = [];
  let from = '';
  for (;;) {
    const page: Answer<WorkbookRowPage> = await api.get(`/workstation/workbooks/${id}/sheets/0/rows/?limit=5000${from}`);
    expect(page.status, page.text).toBe(200);
    rows.push(...page.body.rows);
    if (page.body.next_after === null) return rows;
    from = `&after=${page.body.next_after}`;
  }
}

describe('a revert killed half-way', () => {
  it('reverts every row exactly once after a restart and "load the rest"', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir });
    const api = new ApiClient(first.url);
    const site = await api.post('/api/data/HierarchyNode/?hierarchy=sys', { data: { name: 'RevertKillSite', node_type: 'Site' } });
    expect(site.status, site.text).toBe(200);
    const file = join(dataDir, 'revert-kill.xlsx');
    await writeWorkbook(file);
    expect((await api.upload('revert-kill.xlsx', readFileSync(file), SITE)).status).toBe(200);
    const created = await api.post<WorkbookAnswer>('/workstation/workbooks/', {
      from: 'upload',
      file: 'revert-kill.xlsx',
      hierarchy: SITE,
    });
    expect(created.status, created.text).toBe(202);
    const staged = await waitFor(api, created.body.workbook.id, (info) => info.state !== 'staging' && info.state !== 'validating');
    const original = await load(api, staged);
    const loaded = await waitFor(api, staged.id, (info) => info.state !== 'loading');
    expect(loaded.load).toMatchObject({ loaded: ROWS });

    const asked = await api.post<RevertAnswer>(`/workstation/transactions/${original.transaction_id}/revert/`, undefined);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body.rows).toBe(ROWS);
    const id = asked.body.workbook.id;
    const planned = await waitFor(api, id, (info) => info.plan?.revision === info.revision && info.state === 'planned');
    expect(planned.plan?.totals).toMatchObject({ delete: ROWS, conflict: 0, error: 0 });
    const run1 = await load(api, planned);
    for (let left = ROWS; left > ROWS - ROWS / 4; left = await api.total('relation/LineRelation', SITE))
      await new Promise((resolve) => setTimeout(resolve, 50));
    await first.kill();

    const second = await startServe({ dataDir });
    const again = new ApiClient(second.url);
    const cut = await waitFor(again, id, (info) => info.state !== 'loading');
    expect(cut.state).toBe('failed');
    console.log(`[revert-kill] ${cut.load?.loaded} of ${ROWS} rows reverted before the kill, ${cut.load?.not_run} never ran`);
    expect(cut.load?.loaded).toBeGreaterThan(0);
    expect(cut.load?.loaded).toBeLessThan(ROWS);
    expect((cut.load?.loaded ?? 0) + (cut.load?.not_run ?? 0)).toBe(ROWS);
    expect(await again.total('relation/LineRelation', SITE)).toBe(ROWS - (cut.load?.loaded ?? 0));

    const run2 = await load(again, cut);
    expect(run2.rows).toBe(cut.load?.not_run);
    const finished = await waitFor(again, id, (info) => info.state !== 'loading');
    expect(finished.load).toMatchObject({ total: ROWS, loaded: ROWS, failed: 0, conflicts: 0, not_run: 0 });
    expect(await again.total('relation/LineRelation', SITE)).toBe(0);
    expect(await again.total('device/cucm/Line', SITE)).toBe(0);

    // Each row reverted by one successful sub-transaction of one of the two runs, none twice.
    const deleted = new Map<string, string>();
    for (const parentId of [run1.transaction_id, run2.transaction_id]) {
      for (const sub of await allSubTransactions(again, parentId)) {
        if (sub.status === 'Success') deleted.set(sub.transaction_id, parentId);
      }
    }
    const rows = await outcomes(again, id);
    expect(rows).toHaveLength(ROWS);
    expect(rows.every((row) => row.outcome?.status === 'loaded' && deleted.has(row.outcome.transaction_id))).toBe(true);
    expect(new Set(rows.map((row) => row.outcome?.pkid)).size).toBe(ROWS);
    expect(deleted.size).toBe(ROWS);

    const link = (await again.get<RevertLink>(`/workstation/transactions/${original.transaction_id}/revert/`)).body;
    expect(link.reverted_by).toMatchObject([{ workbook_id: id, state: 'loaded', loads: [run1.transaction_id, run2.transaction_id] }]);
    const back = (await again.get<RevertLink>(`/workstation/transactions/${run2.transaction_id}/revert/`)).body;
    expect(back.reverts).toBe(original.transaction_id);
  }, 300_000);
});
