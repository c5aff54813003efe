import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { instancesOf, linkOf, loadWorkbook, planRows, revertPlan } from './revert-helpers';
import { apiLoad, NUMBER, PARTITION, relationOf, seedRevertWorld } from './revert-world';

/**
 * Issue 33's round trip, at 1,000 rows: a mixed load (600 adds, 200 modifies, 200 deletes of line
 * relations, with their device lines and numbers) run by /api/tool/BulkLoad, then reverted: every
 * instance of the store is as it was before the load, compared one by one on its node, document,
 * links, tags and version tag (the numbers' inventory states with them), and nothing else changed.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  await seedRevertWorld(t, 400);
}, 120_000);
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name', 'Description'];

function mixedRows(): (string | null)[][] {
  const adds = Array.from({ length: 600 }, (_, i) => [PARIS, 'add', NUMBER(400 + i), PARTITION, `New ${i}`, `new line ${i}`]);
  const modifies = Array.from({ length: 200 }, (_, i) => [PARIS, 'modify', NUMBER(i), PARTITION, `Changed ${i}`, null]);
  const deletes = Array.from({ length: 200 }, (_, i) => [PARIS, 'delete', NUMBER(200 + i), PARTITION, null, null]);
  return [...adds, ...modifies, ...deletes];
}

describe('a 1,000-row load reverted', () => {
  it('leaves every instance as it was before the load, and nothing else changed', async () => {
    // Tags and a version tag on instances the load deletes and changes: a revert gives them back.
    for (const i of [0, 1, 200, 201, 399]) {
      const { pkid } = await relationOf(t, NUMBER(i));
      const tagged = await t.call('PATCH', `/api/relation/LineRelation/${pkid}/+tag/${q(PARIS, '&tag=keep&tag=vip')}`);
      expect(tagged.status, tagged.text).toBeLessThan(300);
      const versioned = await t.call('PATCH', `/api/relation/LineRelation/${pkid}/+tag_version/${q(PARIS, '&version_tag=2.1')}`);
      expect(versioned.status, versioned.text).toBeLessThan(300);
    }
    const before = instancesOf(t);
    const loadId = await apiLoad(t, 'mixed.xlsx', await compactWorkbook('LineRelation', HEADER, mixedRows()));
    const parent = await t.get(`/api/tool/Transaction/${loadId}/${q(PARIS)}`);
    expect(parent.body.data.status, parent.text).toBe('Success');
    expect(instancesOf(t).size).toBe(before.size + 2 * 400);

    const { answer, info } = await revertPlan(t, loadId);
    expect(answer.rows).toBe(1000);
    expect(info.name).toMatch(/^Revert of mixed\.xlsx/);
    expect(info.reverts).toBe(loadId);
    expect(info.plan?.totals).toEqual({ add: 200, modify: 200, delete: 600, unchanged: 0, conflict: 0, error: 0 });
    const plan = await planRows(t, info.id);
    // The last rows of the load are undone first: the deletes are made again before the modifies go back.
    expect(plan[0].action).toBe('add');
    expect(plan.find((row) => row.action === 'modify')?.changes).toEqual([{ field: 'alertingName', old: 'Changed 199', new: 'Line 199' }]);

    const { transactionId: revertId, info: reverted } = await loadWorkbook(t, info);
    expect(reverted.state, JSON.stringify(reverted.load)).toBe('loaded');
    expect(reverted.load).toMatchObject({ total: 1000, loaded: 1000, failed: 0, conflicts: 0, not_run: 0 });

    const now = instancesOf(t);
    const differing = [...new Set([...before.keys(), ...now.keys()])].filter((pkid) => before.get(pkid) !== now.get(pkid));
    expect(differing.slice(0, 3).map((pkid) => [pkid, before.get(pkid), now.get(pkid)])).toEqual([]);
    expect(differing.length).toBe(0);

    // The load and its revert lead to each other.
    const link = await linkOf(t, loadId);
    expect(link.reverted_by).toMatchObject([{ workbook_id: info.id, state: 'loaded', loads: [revertId] }]);
    expect((await linkOf(t, revertId)).reverts).toBe(loadId);
  }, 120_000);
});
