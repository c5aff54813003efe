import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from './api-client';
import { cleanupServers, startServe, tempDataDir } from './serve-process';
import { allSubTransactions, getTransaction } from './transactions-api';

/**
 * SIGKILL in the middle of a 20,000-row bulk load, then a restart on the same data folder:
 * every row is loaded whole or not at all, none twice, and the load's parent transaction says
 * which rows ran (its sub-transactions) and how many ([ ok/20000 ]).
 */
afterAll(cleanupServers);

const ROWS = 20_000;
const SITE = 'sys.KillSite';
const patternOf = (i: number): string => `+4971${String(1_000_000 + i)}`;

async function workbookWith(rows: number, file: string): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file });
  const sheet = writer.addWorksheet('LineRelation');
  sheet.addRow(['# Hierarchy Node', '# Directory Number', '# Alerting Name']).commit();
  for (let i = 0; i < rows; i += 1) sheet.addRow([SITE, patternOf(i), `Kill Test ${i}`]).commit();
  await writer.commit();
}

describe('a bulk load killed half-way', () => {
  it('leaves every row loaded whole or not at all, none twice, and the parent tells which', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir });
    const api = new ApiClient(first.url);
    expect((await api.post('/api/data/HierarchyNode/?hierarchy=sys', { data: { name: 'KillSite', node_type: 'Site' } })).status).toBe(200);
    const file = join(dataDir, 'kill.xlsx');
    await workbookWith(ROWS, file);
    const uploaded = await api.upload('kill.xlsx', readFileSync(file), SITE);
    expect(uploaded.status, uploaded.text).toBe(200);
    const started = await api.post<{ transaction_id: string }>(
      `/api/tool/BulkLoad/?hierarchy=${SITE}&method=bulkload_spreadsheet&nowait=true`,
      {
        bulkload_file: 'kill.xlsx',
        execute_immediately: true,
      },
    );
    expect(started.status).toBe(202);
    const loadedSoFar = async (): Promise<number> =>
      (await api.get<{ pagination: { total: number } }>(`/api/relation/LineRelation/?hierarchy=${SITE}&limit=1`)).body.pagination.total;
    // Kill once some rows are in and most are still waiting.
    for (let loaded = 0; loaded < 300; loaded = await loadedSoFar()) await new Promise((done) => setTimeout(done, 50));
    await first.kill();

    const second = await startServe({ dataDir });
    const reader = new ApiClient(second.url);
    const parent = await getTransaction(reader, started.body.transaction_id);
    // Every row counted by the parent, and listed page by page (decisions.md: a parent's answer is bounded).
    const statuses = (await allSubTransactions(reader, started.body.transaction_id)).map((sub) => sub.status);
    const ok = statuses.filter((status) => status === 'Success').length;
    expect(parent.sub_transaction_counts).toEqual({ total: ROWS, Success: ok, ...(ok < ROWS ? { Fail: ROWS - ok } : {}) });
    console.log(`[bulk-load-kill] ${ok} of ${ROWS} rows loaded before the kill; parent ${parent.status}: ${parent.detail}`);
    expect(statuses).toHaveLength(ROWS);
    expect(statuses.every((status) => status === 'Success' || status === 'Fail')).toBe(true);
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(ROWS);
    expect(parent.status).toBe('Fail');
    expect(parent.detail).toBe(`[ ${ok}/${ROWS} ] succeeded from [ 1 ] sheet in kill.xlsx`);
    // What the rows say is what the store holds: each loaded row once, with its device line.
    const lines = await reader.get<{ pagination: { total: number } }>(`/api/relation/LineRelation/?hierarchy=${SITE}&limit=1`);
    expect(lines.body.pagination.total).toBe(ok);
    const deviceLines = await reader.get<{ pagination: { total: number } }>(`/api/device/cucm/Line/?hierarchy=${SITE}&limit=1`);
    expect(deviceLines.body.pagination.total).toBe(ok);
    // Rows run in order, so the loaded ones are exactly the first `ok`: none twice, none skipped.
    expect(statuses.slice(0, ok).every((status) => status === 'Success')).toBe(true);
    const last = await reader.get<{ pagination: { total: number } }>(
      `/api/relation/LineRelation/?hierarchy=${SITE}&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(patternOf(ok - 1))}`,
    );
    expect(last.body.pagination.total).toBe(1);
    const next = await reader.get<{ pagination: { total: number } }>(
      `/api/relation/LineRelation/?hierarchy=${SITE}&filter_field=pattern&filter_condition=equals&filter_text=${encodeURIComponent(patternOf(ok))}`,
    );
    expect(next.body.pagination.total).toBe(0);
  }, 120_000);
});
