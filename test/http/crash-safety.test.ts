import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, type SyncSuccess, type TransactionRef } from './api-client';
import { auditAcknowledged, auditDeviceSide, auditLineRelations, statusesOf } from './crash-audit';
import { cleanupServers, startServe, tempDataDir } from './serve-process';
import {
  allSubTransactions,
  countByStatus,
  FINAL_STATUSES,
  getTransaction,
  listAllTransactions,
  type TransactionData,
} from './transactions-api';
import { EXPECTED_STATUS, startWriteLoad, type WriteRecord } from './write-load';

/**
 * The key promise of the embedded store: a process killed in the middle of concurrent writes
 * (SIGKILL: no handler runs) restarts with every transaction finished one way or the other,
 * and the store agrees with what the transactions and the clients were told.
 */
const CUSTOMER = 'sys.hcs.Telco.Acme';
const PARIS = `${CUSTOMER}.Paris`;
const RECOVERED_LINE = /^(\d+) interrupted transaction\(s\) marked Fail and rolled back$/;

afterAll(cleanupServers);

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

function tally(records: WriteRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) {
    const key = `${record.kind} ${record.status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** The count the restart printed, or 0 when it printed no recovery line. */
function recoveredCount(lines: string[]): number {
  const line = lines.find((candidate) => RECOVERED_LINE.test(candidate));
  return line === undefined ? 0 : Number(RECOVERED_LINE.exec(line)?.[1]);
}

describe('crash safety over HTTP', () => {
  it('restarts after SIGKILL under concurrent writes with every transaction finished and the store consistent', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir, seed: 'demo' });
    const writer = new ApiClient(first.url);
    // Verify the password once, so the four clients start writing at full speed together.
    expect((await writer.get('/api/data/HierarchyNode/?hierarchy=sys')).status).toBe(200);
    const load = startWriteLoad(writer, PARIS, 4);
    await sleep(1_500);
    // Accepted but not yet run when the kill lands: the start-up recovery has work to do.
    await load.burst(80);
    const records = await load.stopWith(() => first.kill());
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(
      records.filter((record) => record.error !== undefined),
      'requests that failed before the kill',
    ).toEqual([]);
    const unexpected = records.filter((record) => record.status !== 'dropped' && record.status !== EXPECTED_STATUS[record.kind]);
    expect(unexpected, 'answers other than the expected status').toEqual([]);

    const second = await startServe({ dataDir, seed: 'demo' });
    const api = new ApiClient(second.url);
    const transactions = await listAllTransactions(api);
    const canceled = transactions.filter((tx) => tx.message.startsWith('Transaction canceled'));
    console.log('[crash-safety] writes sent before the kill:', tally(records));
    console.log('[crash-safety] transactions after restart:', countByStatus(transactions), `(${canceled.length} canceled by recovery)`);

    // Without work in flight at the kill, this run would prove nothing about recovery.
    expect(canceled.length, 'transactions in flight at the kill').toBeGreaterThan(0);
    expect(
      transactions.filter((tx) => !FINAL_STATUSES.includes(tx.status)),
      'unfinished transactions',
    ).toEqual([]);
    expect(recoveredCount(second.stdoutLines)).toBe(canceled.length);
    // A single change that failed is undone whole (a group parent keeps its finished children).
    const single = transactions.filter((tx: TransactionData) => tx.sub_transactions.length === 0);
    const notRolledBack = single.filter((tx) => tx.status === 'Fail' && tx.rolled_back !== 'Yes');
    expect(notRolledBack, 'Fail transactions not rolled back').toEqual([]);
    await auditLineRelations(api, transactions);
    await auditDeviceSide(api, CUSTOMER);
    await auditAcknowledged(api, records, transactions);

    expect(await second.stop()).toEqual({ code: 0, signal: null });
    const db = new Database(join(dataDir, 'workspaces', 'Local.sqlite'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('a group delete killed half-way says its finished deletes were kept, not rolled back', async () => {
    const dataDir = tempDataDir();
    const first = await startServe({ dataDir });
    const api = new ApiClient(first.url);
    const hrefs: string[] = [];
    for (let batch = 0; batch < 40; batch += 1) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api.post<SyncSuccess>('/api/relation/LineRelation/?hierarchy=sys', { data: { pattern: `+4971${batch * 10 + i + 1000}` } }),
        ),
      );
      hrefs.push(...created.map((answer) => answer.body.href));
    }
    const group = await api.call<TransactionRef>('DELETE', '/api/relation/LineRelation/?hierarchy=sys&nowait=true', { json: { hrefs } });
    expect(group.status).toBe(202);
    // Kill once some deletes have finished and others still wait: the parent is Processing.
    for (;;) {
      const counts = (await getTransaction(api, group.body.transaction_id)).sub_transaction_counts;
      if (!counts.Queued) throw new Error('the group finished before the kill; make it larger');
      if (counts.Success) break;
    }
    await first.kill();

    const second = await startServe({ dataDir });
    const reader = new ApiClient(second.url);
    const parent = await getTransaction(reader, group.body.transaction_id);
    const subs = await allSubTransactions(reader, group.body.transaction_id);
    expect(subs).toHaveLength(parent.sub_transaction_counts.total);
    const children = await Promise.all(subs.map((sub) => getTransaction(reader, sub.transaction_id)));
    const done = children.filter((child) => child.status === 'Success');
    console.log(
      `[crash-safety] group delete: ${done.length} of ${children.length} deletes done at the kill; parent ${parent.status}, rolled_back ${parent.rolled_back}`,
    );
    expect(done.length).toBeGreaterThan(0);
    expect(done.length).toBeLessThan(hrefs.length);
    expect(children.every((child) => child.status === 'Success' || child.rolled_back === 'Yes')).toBe(true);
    // What the children say is what the store holds.
    const statuses = await statusesOf(
      reader,
      children.map((child) => child.resource.pkid),
    );
    expect(children.filter((child) => statuses.get(child.resource.pkid) !== (child.status === 'Success' ? 404 : 200))).toEqual([]);
    expect(parent.status).toBe('Fail');
    // The finished deletes were not undone (a failed child never undoes the others), so the
    // parent must not tell the user that everything was rolled back.
    expect(parent.message).not.toMatch(/every step was rolled back/);
    expect(parent.rolled_back).toBe('No');
  });
});
