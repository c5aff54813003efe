import { randomUUID } from 'node:crypto';
import { createService } from '../../main/service';
import type { WorkbookRowPage } from '../../main/service/contract/workbook-api';
import { basicAuth, type BenchConfig } from './bench-config';
import { stopChild } from './child-process-stop';
import type { CleanupStack } from './cleanup-stack';
import { percentile } from './latency-stats';
import { startServer } from './sheets-steps';

/**
 * "1,000,000 rows must page as fast as 1,000": a staged workbook of a million rows is written
 * straight into a store of its own (staging a million rows through a file is the staging step's
 * business, measured at 100,000), then pages of 200 rows are read over HTTP at the top of it and
 * 999,800 rows down, in turns.
 */
const MILLION = 1_000_000;
const PAGES = 100;
const PARIS = 'sys.hcs.Telco.Acme.Paris';

export interface MillionFigures {
  firstP50: number;
  firstP99: number;
  deepP50: number;
  deepP99: number;
}

async function seedMillion(dataDir: string, password: string): Promise<string> {
  const service = await createService({ dataDir, adminPassword: password, log: () => undefined });
  const { store } = service;
  const admin = store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  const id = randomUUID();
  const now = store.now();
  const revision = store.workbooks.nextRevision();
  const wb = store.workbooks.create({
    id,
    name: 'million.xlsx',
    owner: 'admin',
    owner_pkid: admin.pkid,
    owner_path: 'sys',
    hierarchy_pkid: admin.hierarchyPkid,
    source: 'upload',
    state: 'validated',
    revision,
    created_at: now,
    updated_at: now,
  });
  const columns = ['Hierarchy Node', 'Directory Number', 'Alerting Name'].map((name, index) => ({
    id: index + 1,
    name,
    group: '',
    title: '',
  }));
  store.db.transaction(() => {
    store.workbooks.addSheet({
      wb,
      sheet_no: 0,
      name: 'LineRelation',
      skipped: 0,
      directive: null,
      model_type: 'relation/LineRelation',
      columns: JSON.stringify(columns),
      next_column: columns.length + 1,
      rows: MILLION,
      raw: null,
      row_gaps: '[]',
    });
    store.workbooks.setValidated(wb, revision);
  })();
  for (let first = 0; first < MILLION; first += 50_000) {
    store.db.transaction(() => {
      const firstId = store.workbooks.takeRowIds(wb, 50_000);
      for (let offset = 0; offset < 50_000; offset += 1) {
        const index = first + offset;
        const cells = JSON.stringify({ 1: PARIS, 2: `+3317${String(index).padStart(7, '0')}`, 3: `Person ${index}` });
        store.workbooks.addRow(wb, firstId + offset, 0, index, cells);
      }
    })();
  }
  service.close();
  return id;
}

export async function measureMillionPages(config: BenchConfig, dataDir: string, cleanup: CleanupStack): Promise<MillionFigures> {
  const id = await seedMillion(dataDir, config.adminPassword);
  const server = await startServer(dataDir, config.adminPassword, cleanup);
  const authorization = basicAuth(config.adminPassword);
  const first: number[] = [];
  const deep: number[] = [];
  const page = async (skip: number): Promise<number> => {
    const started = performance.now();
    const reply = await fetch(`${server.origin}/workstation/workbooks/${id}/sheets/0/rows/?skip=${skip}&limit=200`, {
      headers: { authorization },
    });
    const body = (await reply.json()) as WorkbookRowPage;
    if (reply.status !== 200 || body.rows.length !== 200 || body.rows[0].index !== skip)
      throw new Error(`page at ${skip} answered ${reply.status}`);
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < PAGES; i += 1) {
      first.push(await page(i % 5));
      deep.push(await page(MILLION - 200 - (i % 5)));
    }
  } finally {
    await stopChild(server.child);
  }
  const sorted = (values: number[]): number[] => [...values].sort((a, b) => a - b);
  return {
    firstP50: percentile(sorted(first), 50),
    firstP99: percentile(sorted(first), 99),
    deepP50: percentile(sorted(deep), 50),
    deepP99: percentile(sorted(deep), 99),
  };
}
