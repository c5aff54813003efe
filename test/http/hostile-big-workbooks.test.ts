import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../../main/service';
import type { WorkbookEditResult, WorkbookInfo, WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { seedDemo } from '../../main/service/seed/demo';
import { ADMIN, ApiClient, type Credentials } from './api-client';
import { expectNotHeld, STRICT, whileHostile } from './others-latency';
import { cleanupServers, startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from './serve-process';

/**
 * Issue 30, findings 3 and 4, over real HTTP against server mode. A 100,000-row paste (6.4 MB,
 * within the documented maximum) held the service's thread 2.4-3.4 s and its undo 4-8 s; a plain
 * `find` or `code` filter over a 1,000,000-row workbook scanned it on the service's thread. While
 * each runs (alone, and four at once), another admin's requests must keep a p99 under 50 ms
 * (asserted with WORKSTATION_STRICT_TIMING=1 on a quiet machine; printed always).
 */
const PARIS = 'sys.hcs.Telco.Acme.Paris';
/**
 * The big workbook's rows: a million on a quiet machine with WORKSTATION_STRICT_TIMING=1 (the
 * finding's size); 200,000 in the suite, where a scan in turns shows the same property in a
 * fifth of the time (a million made this file 7 of the suite's 20 minutes).
 */
const MILLION = STRICT ? 1_000_000 : 200_000;
const ROWS_TEXT = MILLION.toLocaleString('en-US');
const OTHER: Credentials = { username: 'other.admin', password: 'other-admin-pw-1' };
const OTHER_PATHS = [`/api/data/InternalNumberInventory/?hierarchy=sys.hcs.Telco.Acme&limit=5`, '/workstation/workbooks/'];

let server: ServeProcess;
let api: ApiClient;
let other: ApiClient;
let million: string;

/** A million-row staged workbook written straight into the store (as the workbook bench does), each row with one issue. */
async function seedStore(dataDir: string): Promise<string> {
  const service = await createService({ dataDir, adminPassword: TEST_PASSWORD, log: () => undefined });
  const { store } = service;
  const admin = store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  await seedDemo(service, { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid });
  const id = randomUUID();
  const revision = store.workbooks.nextRevision();
  const wb = store.workbooks.create({
    ...{ id, name: 'million.xlsx', owner: 'admin', owner_pkid: admin.pkid, owner_path: 'sys', hierarchy_pkid: admin.hierarchyPkid },
    ...{ source: 'upload', state: 'draft', revision, created_at: store.now(), updated_at: store.now() },
  });
  const columns = ['Hierarchy Node', 'pattern', 'alertingName'].map((name, index) => ({ id: index + 1, name, group: '', title: '' }));
  store.workbooks.addSheet({
    ...{ wb, sheet_no: 0, name: 'LineRelation', skipped: 0, directive: null, model_type: 'relation/LineRelation' },
    ...{ columns: JSON.stringify(columns), next_column: 4, rows: MILLION, raw: null, row_gaps: '[]' },
  });
  store.workbooks.setValidated(wb, revision);
  const issue = store.db.prepare(
    `INSERT INTO workbook_issues (wb, row_id, seq, sheet_no, column_id, field, severity, code, message, suggestion)
     VALUES (?, ?, 0, 0, 3, 'alertingName', 'warning', 'long-name', 'A long name', NULL)`,
  );
  const warn = store.db.prepare('UPDATE workbook_rows SET warnings = 1 WHERE wb = ? AND row_id = ?');
  for (let first = 0; first < MILLION; first += 50_000) {
    store.db.transaction(() => {
      const firstId = store.workbooks.takeRowIds(wb, 50_000);
      for (let offset = 0; offset < 50_000; offset += 1) {
        const index = first + offset;
        const cells = JSON.stringify({ 1: PARIS, 2: `+3317${String(index).padStart(7, '0')}`, 3: `Person ${index}` });
        store.workbooks.addRow(wb, firstId + offset, 0, index, cells);
        issue.run(wb, firstId + offset);
        warn.run(wb, firstId + offset);
      }
    })();
  }
  service.close();
  return id;
}

async function settled(id: string): Promise<WorkbookInfo> {
  for (let tries = 0; ; tries += 1) {
    const info = (await api.get<{ workbook: WorkbookInfo }>(`/workstation/workbooks/${id}/`)).body.workbook;
    if (info.state !== 'staging' && info.state !== 'validating') return info;
    expect(tries).toBeLessThan(3000);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  const dataDir = tempDataDir();
  million = await seedStore(dataDir);
  server = await startServe({ dataDir });
  api = new ApiClient(server.url, ADMIN);
  other = new ApiClient(server.url, OTHER);
  const made = await api.post(`/api/data/User/?hierarchy=sys`, { data: { ...OTHER, role: 'admin' } });
  expect(made.status, made.text).toBe(200);
  for (const path of OTHER_PATHS) for (let i = 0; i < 5; i += 1) expect((await other.get(path)).status).toBe(200);
}, 300_000);
afterAll(cleanupServers);

const hostile = (label: string, run: () => Promise<number>, options: { forMs?: number; parallel?: number } = {}) =>
  whileHostile(other, OTHER_PATHS, label, run, options);

describe('big workbooks hold nobody else', () => {
  it('measures the other admin alone first (the baseline printed beside the figures below)', async () => {
    const alone = await hostile('baseline (no hostile request)', async () => 0);
    if (STRICT) expect(alone.p99).toBeLessThan(50);
  }, 60_000);

  for (const [label, query, parallel] of [
    [`find a text in ${ROWS_TEXT} rows`, `find=${encodeURIComponent('no such text')}`, 1],
    [`find a text in ${ROWS_TEXT} rows, four at once`, `find=${encodeURIComponent('no such text')}`, 4],
    [`a code filter over ${ROWS_TEXT} rows`, 'code=no-such-code', 1],
    [`a code filter over ${ROWS_TEXT} rows, four at once`, 'code=no-such-code', 4],
  ] as const) {
    it(`${label}: the right answer, and others keep p99 < 50 ms`, async () => {
      const figures = await hostile(
        label,
        async () => {
          const reply = await api.get<WorkbookRowPage>(`/workstation/workbooks/${million}/sheets/0/rows/?${query}&limit=10`);
          expect(reply.status, reply.text).toBe(200);
          expect(reply.body.total).toBe(0);
          return reply.status;
        },
        { forMs: 0, parallel },
      );
      expect(figures.statuses.every((status) => status === 200)).toBe(true);
      // Four scans at once each ran their 10 ms back to back: the other admin's median was 41-51 ms (11 ms with one queue of turns).
      if (parallel > 1) expect(figures.p50).toBeLessThan(25);
      expectNotHeld(figures, 1500);
    }, 600_000);
  }

  it('pastes 100,000 rows (6.4 MB) as one revision and undoes it, while others keep p99 < 50 ms', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('LineRelation');
    sheet.addRow(['Hierarchy Node', 'pattern', 'alertingName', 'routePartitionName']);
    sheet.addRow([PARIS, '+33160000000', 'First line', 'PT_INTERNAL']);
    expect((await api.upload('small.xlsx', Buffer.from(await book.xlsx.writeBuffer()), PARIS)).status).toBe(200);
    const staged = await api.post<{ workbook: WorkbookInfo }>('/workstation/workbooks/', {
      from: 'upload',
      file: 'small.xlsx',
      hierarchy: PARIS,
    });
    expect(staged.status, staged.text).toBe(202);
    const info = await settled(staged.body.workbook.id);
    const first = (await api.get<WorkbookRowPage>(`/workstation/workbooks/${info.id}/sheets/0/rows/`)).body.rows[0];
    const tsv = Array.from(
      { length: 100_000 },
      (_, i) => `${PARIS}\t+3316${String(i + 1).padStart(7, '0')}\tPasted line ${i}\tPT_INTERNAL`,
    ).join('\n');
    console.log(`paste of ${(tsv.length / 1e6).toFixed(1)} MB`);
    let revision = info.revision;
    const pasted = await hostile(
      'paste 100,000 rows',
      async () => {
        const reply = await api.post<WorkbookEditResult>(`/workstation/workbooks/${info.id}/edits/`, {
          revision,
          edit: { op: 'paste', sheet: 0, row_id: first.id, column_id: info.sheets[0].columns[0].id, tsv },
        });
        expect(reply.status, reply.text.slice(0, 300)).toBe(200);
        revision = reply.body.revision;
        return reply.status;
      },
      { forMs: 0 },
    );
    const after = await settled(info.id);
    expect(after.counts.rows).toBe(100_000);
    expect(after.can_undo).toBe(true);
    const history = (await api.get<{ history: unknown[] }>(`/workstation/workbooks/${info.id}/history/`)).body;
    expect(history.history).toHaveLength(1);
    const undone = await hostile(
      'undo the paste',
      async () => {
        const reply = await api.post<WorkbookEditResult>(`/workstation/workbooks/${info.id}/undo/`, { revision: after.revision });
        expect(reply.status, reply.text.slice(0, 300)).toBe(200);
        return reply.status;
      },
      { forMs: 0 },
    );
    const back = await settled(info.id);
    expect(back.counts.rows).toBe(1);
    const rows = (await api.get<WorkbookRowPage>(`/workstation/workbooks/${info.id}/sheets/0/rows/`)).body.rows;
    expect(rows.map((row) => row.cells[String(info.sheets[0].columns[1].id)])).toEqual(['+33160000000']);
    // Before: the paste held everyone 3.6 s in one go, its undo 9.1 s.
    expectNotHeld(pasted, 1500);
    expectNotHeld(undone, 1500);
  }, 600_000);
});
