import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService } from '../../main/service';
import type { TransactionDetail, TransactionList } from '../../main/service/contract/transaction-api';
import type { FinishedTx } from '../../main/service/store/transactions-repo';
import { ADMIN, ApiClient } from './api-client';
import { cleanupServers, startServe, tempDataDir, TEST_PASSWORD, type ServeProcess } from './serve-process';

/**
 * Issue 30, finding 8, over real HTTP: a client that follows the spec's advice for long work
 * (`nowait=true`, then poll the transaction) got every sub-transaction of a bulk load at each
 * poll: 7.3 MB at 30,000 rows, 90 ms a poll, for everyone else too. decisions.md now bounds a
 * parent's answer: its first 100 sub-transactions in row order, `sub_transaction_counts` by
 * status, and the rest paged through the transaction list with `parent_id`.
 */
const CHILDREN = 30_000;
const STRICT = process.env.WORKSTATION_STRICT_TIMING === '1';
const PARENT = randomUUID();
/** A load still running: its counts are counted at each poll, not kept. */
const RUNNING = randomUUID();
const CHILD_IDS: string[] = [];

let server: ServeProcess;
let api: ApiClient;

/** A finished bulk load of 30,000 rows (every tenth failed), written through the store before the server starts. */
async function seed(dataDir: string): Promise<void> {
  const service = await createService({ dataDir, adminPassword: TEST_PASSWORD, log: () => undefined });
  try {
    const sys = service.store.nodes.getByPath('sys');
    if (!sys) throw new Error('setup: no sys node');
    const at = '2026-11-28T04:00:00.000000';
    const base = {
      username: 'admin',
      hierarchy_pkid: sys.pkid,
      hierarchy_path: 'sys',
      resource_pkid: null,
      current_state: '',
      submitted_time: at,
      started_time: at,
      completed_time: at,
    };
    service.store.db.transaction(() => {
      const parent: FinishedTx = {
        ...base,
        transaction_id: PARENT,
        parent_id: null,
        status: 'Fail',
        rolled_back: 'No',
        action: 'Execute Bulk Load',
        detail: `[ 27000/${CHILDREN} ] succeeded from [ 1 ] sheet in big.xlsx`,
        message: '',
        model_type: 'tool/BulkLoad',
      };
      service.store.transactions.insertFinished(parent);
      service.store.transactions.insertFinished({ ...parent, transaction_id: RUNNING, status: 'Processing' });
      for (let row = 0; row < 2 * CHILDREN; row += 1) {
        const id = randomUUID();
        if (row < CHILDREN) CHILD_IDS.push(id);
        const failed = row % 10 === 0;
        service.store.transactions.insertFinished({
          ...base,
          transaction_id: id,
          parent_id: row < CHILDREN ? PARENT : RUNNING,
          status: failed ? 'Fail' : 'Success',
          rolled_back: failed ? 'Yes' : 'No',
          action: 'Create',
          detail: `row ${row + 5} of sheet LineRelation: +3314${String(row).padStart(7, '0')}`,
          message: failed ? 'Duplicate key' : '',
          model_type: 'relation/LineRelation',
        });
      }
    })();
  } finally {
    service.close();
  }
}

beforeAll(async () => {
  const dataDir = tempDataDir();
  await seed(dataDir);
  server = await startServe({ dataDir });
  api = new ApiClient(server.url, ADMIN);
}, 120_000);
afterAll(cleanupServers);

describe("a parent transaction's answer is bounded", () => {
  it('answers a 30,000-row load parent with its first 100 rows and the counts of all, small and fast at each poll', async () => {
    for (const [label, id] of [
      ['finished', PARENT],
      ['running', RUNNING],
    ]) {
      const polls: { ms: number; bytes: number }[] = [];
      let detail: TransactionDetail | undefined;
      for (let poll = 0; poll < 20; poll += 1) {
        const started = performance.now();
        const reply = await api.get<{ data: TransactionDetail }>(`/api/tool/Transaction/${id}/`);
        polls.push({ ms: performance.now() - started, bytes: Buffer.byteLength(reply.text) });
        expect(reply.status).toBe(200);
        detail = reply.body.data;
      }
      const ms = polls.map((poll) => poll.ms).sort((a, b) => a - b);
      console.log(
        `[parent-bounded] a poll of the ${label} ${CHILDREN.toLocaleString('en-US')}-row parent: ${polls[0].bytes.toLocaleString('en-US')} bytes, median ${ms[10].toFixed(1)} ms, worst ${ms[19].toFixed(1)} ms`,
      );
      expect(polls[0].bytes).toBeLessThan(64 * 1024);
      // The whole list took 206 ms a poll: far above this on any machine. 20 ms is the budget on a
      // quiet one (WORKSTATION_STRICT_TIMING=1, as the bench runs); the full suite's neighbours
      // share the two cores (22 ms measured there once).
      expect(ms[10]).toBeLessThan(STRICT ? 20 : 60);
      expect(detail?.sub_transactions).toHaveLength(100);
      expect(detail?.sub_transaction_counts).toEqual({ total: CHILDREN, Success: 27_000, Fail: 3_000 });
      if (id === PARENT) expect(detail?.sub_transactions.map((sub) => sub.transaction_id)).toEqual(CHILD_IDS.slice(0, 100));
    }
  }, 60_000);

  it('pages through every sub-transaction in row order with parent_id, and a childless transaction counts none', async () => {
    const seen: string[] = [];
    for (let skip = 0; ; skip += 2000) {
      const page = await api.get<TransactionList>(`/api/tool/Transaction/?hierarchy=sys&parent_id=${PARENT}&skip=${skip}&limit=2000`);
      expect(page.status, page.text).toBe(200);
      expect(page.body.pagination.total).toBe(CHILDREN);
      seen.push(...page.body.resources.map((resource) => resource.data.transaction_id));
      if (page.body.resources.length < 2000) break;
    }
    expect(seen).toEqual(CHILD_IDS);
    const child = await api.get<{ data: TransactionDetail }>(`/api/tool/Transaction/${CHILD_IDS[0]}/`);
    expect(child.body.data.sub_transactions).toEqual([]);
    expect(child.body.data.sub_transaction_counts).toEqual({ total: 0 });
  }, 60_000);
});
