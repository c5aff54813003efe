import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, q, type TestService } from '../helpers';
import { instancesOf, linkOf, loadWorkbook, planRows, revertPlan } from './revert-helpers';
import { apiLoad, NUMBER, PARTITION, relationOf, seedRevertWorld } from './revert-world';

/**
 * Issue 33's round trip, at 1,000 rows (REVERT_ROWS=10000 for the figure, a slower run): a
 * mixed load (60% adds, 20% modifies, 20% deletes of line relations, with their device lines and
 * numbers) run by /api/tool/BulkLoad, then reverted: every instance of the store is as it was
 * before the load, compared one by one on its node, document, links, tags and version tag (the
 * numbers' inventory states with them), and nothing else changed.
 */
const ROWS = Number(process.env.REVERT_ROWS ?? 1000);
const ADDS = (ROWS * 3) / 5;
const FIFTH = ROWS / 5;
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
  await seedRevertWorld(t, 2 * FIFTH, ROWS);
}, 600_000);
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Directory Number', 'routePartitionName', 'Alerting Name', 'Description'];

function mixedRows(): (string | null)[][] {
  const adds = Array.from({ length: ADDS }, (_, i) => [PARIS, 'add', NUMBER(2 * FIFTH + i), PARTITION, `New ${i}`, `new line ${i}`]);
  const modifies = Array.from({ length: FIFTH }, (_, i) => [PARIS, 'modify', NUMBER(i), PARTITION, `Changed ${i}`, null]);
  const deletes = Array.from({ length: FIFTH }, (_, i) => [PARIS, 'delete', NUMBER(FIFTH + i), PARTITION, null, null]);
  return [...adds, ...modifies, ...deletes];
}

describe(`a ${ROWS.toLocaleString('en-US')}-row load reverted`, () => {
  it('leaves every instance as it was before the load, and nothing else changed', async () => {
    // Tags and a version tag on instances the load deletes and changes: a revert gives them back.
    for (const i of [0, 1, FIFTH, FIFTH + 1, 2 * FIFTH - 1]) {
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
    expect(instancesOf(t).size).toBe(before.size + 2 * (ADDS - FIFTH));

    const { answer, info } = await revertPlan(t, loadId);
    expect(answer.rows).toBe(ROWS);
    expect(info.name).toMatch(/^Revert of mixed\.xlsx/);
    expect(info.reverts).toBe(loadId);
    expect(info.plan?.totals).toEqual({ add: FIFTH, modify: FIFTH, delete: ADDS, unchanged: 0, conflict: 0, error: 0 });
    const plan = await planRows(t, info.id);
    // The last rows of the load are undone first: the deletes are made again before the modifies go back.
    expect(plan[0].action).toBe('add');
    const last = FIFTH - 1;
    expect(plan.find((row) => row.action === 'modify')?.changes).toEqual([
      { field: 'alertingName', old: `Changed ${last}`, new: `Line ${last}` },
    ]);

    const { transactionId: revertId, info: reverted } = await loadWorkbook(t, info);
    expect(reverted.state, JSON.stringify(reverted.load)).toBe('loaded');
    expect(reverted.load).toMatchObject({ total: ROWS, loaded: ROWS, failed: 0, conflicts: 0, not_run: 0 });

    const now = instancesOf(t);
    const differing = [...new Set([...before.keys(), ...now.keys()])].filter((pkid) => before.get(pkid) !== now.get(pkid));
    expect(differing.slice(0, 3).map((pkid) => [pkid, before.get(pkid), now.get(pkid)])).toEqual([]);
    expect(differing.length).toBe(0);

    // The load and its revert lead to each other.
    const link = await linkOf(t, loadId);
    expect(link.reverted_by).toMatchObject([{ workbook_id: info.id, state: 'loaded', loads: [revertId] }]);
    expect((await linkOf(t, revertId)).reverts).toBe(loadId);
  }, 600_000);
});
