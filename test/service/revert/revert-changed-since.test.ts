import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { instancesOf, loadFile, loadWorkbook, planRows, revertPlan } from './revert-helpers';
import { NUMBER, PARTITION, relationOf, seedRevertWorld } from './revert-world';

/**
 * Issue 33, changed since: between a load and its revert, 10 of its instances are changed, 5
 * deleted, and another load takes 5 of the numbers it freed. Exactly those 20 rows of the revert
 * are conflicts or errors, each saying why; the 180 others revert, and the 20 are left as they
 * are (never reverted blindly).
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  await seedRevertWorld(t, 100);
}, 120_000);
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name'];
const ADDED = (i: number): number => 500 + i;

async function rename(pattern: string, name: string): Promise<void> {
  const { pkid } = await relationOf(t, pattern);
  const reply = await t.call('PUT', `/api/relation/LineRelation/${pkid}/${q(PARIS)}`, { data: { alertingName: name } });
  expect(reply.status, reply.text).toBe(200);
}

describe('a revert of a load changed since', () => {
  it('makes exactly the changed, deleted and taken rows conflicts or errors with their reasons, and reverts the others', async () => {
    // The load: 100 adds, 50 modifies (0-49), 50 deletes (50-99).
    const rows = [
      ...Array.from({ length: 100 }, (_, i) => [PARIS, 'add', NUMBER(ADDED(i)), PARTITION, `New ${i}`]),
      ...Array.from({ length: 50 }, (_, i) => [PARIS, 'modify', NUMBER(i), PARTITION, `Changed ${i}`]),
      ...Array.from({ length: 50 }, (_, i) => [PARIS, 'delete', NUMBER(50 + i), PARTITION, null]),
    ];
    const before = instancesOf(t);
    const { transactionId: loadId } = await loadFile(t, await compactWorkbook('LineRelation', HEADER, rows), PARIS);

    // Since: 5 added and 5 modified renamed, 5 added deleted, 5 freed numbers taken by another load.
    for (const i of [0, 1, 2, 3, 4]) await rename(NUMBER(ADDED(i)), `Someone ${i}`);
    for (const i of [10, 11, 12, 13, 14]) await rename(NUMBER(i), `Someone else ${i}`);
    for (const i of [20, 21, 22, 23, 24]) {
      const { pkid } = await relationOf(t, NUMBER(ADDED(i)));
      expect((await t.call('DELETE', `/api/relation/LineRelation/${pkid}/${q(PARIS)}`)).status).toBe(200);
    }
    const taking = [90, 91, 92, 93, 94].map((i) => [PARIS, 'add', NUMBER(i), 'Other-PT', `Taker ${i}`]);
    await loadFile(t, await compactWorkbook('LineRelation', HEADER, taking), PARIS);
    const since = instancesOf(t);

    const { info } = await revertPlan(t, loadId);
    const plan = await planRows(t, info.id);
    expect(plan).toHaveLength(200);
    const flagged = plan.filter((row) => row.action === 'conflict' || row.action === 'error');
    expect(flagged).toHaveLength(20);
    expect(info.plan?.totals).toMatchObject({ conflict: 15, error: 5 });
    // Changed since: the field, its value now and after the load.
    const renamed = flagged.filter((row) => /changed since the load/.test(row.message ?? ''));
    expect(renamed).toHaveLength(10);
    expect(renamed.map((row) => row.changes)).toContainEqual([{ field: 'alertingName', old: 'Changed 14', new: 'Someone else 14' }]);
    expect(renamed.map((row) => row.message)).toContainEqual(
      expect.stringMatching(/alertingName is "Someone 3" now, "New 3" after the load/),
    );
    // Deleted since: its row has no target.
    expect(flagged.filter((row) => row.action === 'error').map((row) => row.message)).toEqual(
      Array.from({ length: 5 }, () => expect.stringMatching(/is not the pkid of any relation\/LineRelation/)),
    );
    // Numbers taken since: the re-made line would need a number that is Used now.
    const taken = flagged.filter((row) => row.action === 'conflict' && !/changed since the load/.test(row.message ?? ''));
    expect(taken.map((row) => row.message)).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/\+331500000(9[0-4]).*Used/)));

    // Run with its errors: the 180 others revert, the 20 stay as they are now.
    const { info: run } = await loadWorkbook(t, info, true);
    expect(run.load).toMatchObject({ loaded: 180 });
    expect((run.load?.failed ?? 0) + (run.load?.conflicts ?? 0)).toBe(20);
    const now = instancesOf(t);
    expect((await relationOf(t, NUMBER(14))).data.alertingName).toBe('Someone else 14');
    expect((await relationOf(t, NUMBER(ADDED(3)))).data.alertingName).toBe('Someone 3');
    expect((await relationOf(t, NUMBER(90))).data.routePartitionName).toBe('Other-PT');
    expect((await relationOf(t, NUMBER(49))).data.alertingName).toBe(`Line 49`);
    // Every instance is as it was before the load, except what the 20 rows would have put back:
    // those are as they were made since (10 renamed relations and their lines, 5 relations and
    // lines not made again and the 5 relations and lines that took their numbers, 5 numbers Used
    // by the renamed added relations).
    const differing = [...new Set([...before.keys(), ...now.keys()])].filter((pkid) => before.get(pkid) !== now.get(pkid));
    expect(differing.filter((pkid) => now.get(pkid) !== since.get(pkid))).toEqual([]);
    expect(differing).toHaveLength(45);
  }, 120_000);
});
