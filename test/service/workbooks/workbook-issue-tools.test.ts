import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkbookInfo, WorkbookLoadAnswer, WorkbookRowPage } from '../../../main/service/contract/workbook-api';
import { compactWorkbook } from '../bulk-validate-helpers';
import { openTestService, PARIS, type TestService } from '../helpers';
import { edit, issues, rows, settled, stage } from './workbook-helpers';

/**
 * What the grid's issue tools ask of the service: the previous row with an error (`before=`),
 * every suggested fix of a code in a column applied as one revision, and a running load
 * canceled after its current batch, the rest loaded later and never twice.
 */
let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const HEADER = ['Hierarchy Node', 'Action', 'Device', 'Directory Number', 'routePartitionName', 'Alerting Name'];

describe('rows before an index', () => {
  it('answers the nearest row with an error before a row, and the ones before it in sheet order', async () => {
    const sheetRows = Array.from({ length: 8 }, (_, index) => [
      PARIS,
      'add',
      null,
      // Rows 1, 3 and 6 are in error: a directory number that is no number.
      [1, 3, 6].includes(index) ? `bad ${index}` : `+3314009${String(index).padStart(4, '0')}`,
      null,
      `Line ${index}`,
    ]);
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, sheetRows));
    const indexes = async (query: string): Promise<number[]> => {
      const reply = await t.get(`/workstation/workbooks/${info.id}/sheets/0/rows/?${query}`);
      expect(reply.status, reply.text).toBe(200);
      return (reply.body as WorkbookRowPage).rows.map((row) => row.index);
    };
    expect(await indexes('only=errors')).toEqual([1, 3, 6]);
    expect(await indexes('only=errors&before=6&limit=1')).toEqual([3]);
    expect(await indexes('only=errors&before=3&limit=1')).toEqual([1]);
    expect(await indexes('only=errors&before=1&limit=1')).toEqual([]);
    expect(await indexes('only=errors&before=7&limit=2')).toEqual([3, 6]);
    expect(await indexes('only=errors&after=3&limit=1')).toEqual([6]);
    expect(await indexes('before=3&limit=2')).toEqual([1, 2]);
    const column = info.sheets[0].columns.find((entry) => entry.name === 'Directory Number')?.id;
    expect(await indexes(`column=${column}&before=6&limit=1`)).toEqual([3]);
  });
});

describe('apply the suggested fix to all like it', () => {
  it('stores each numeric directory number as its text, in one revision that undo takes back whole', async () => {
    const numbers = [33140009101, 33140009102, 33140009103];
    const { info } = await stage(
      t,
      await compactWorkbook('LineRelation', HEADER, [
        ...numbers.map((value, index) => [PARIS, 'add', null, { kind: 'number' as const, value }, null, `Numeric ${index}`]),
        [PARIS, 'add', null, '+33140009104', null, 'Text'],
      ]),
    );
    const column = info.sheets[0].columns.find((entry) => entry.name === 'Directory Number')?.id as number;
    const before = await issues(t, info.id);
    expect(before.fixable).toContainEqual({ sheet: 0, code: 'numeric-in-text-column', column_id: column, count: 3 });
    expect(before.issues.find((issue) => issue.code === 'numeric-in-text-column')?.suggestion?.value).toBe('33140009101');

    const result = await edit(t, info.id, info.revision, {
      op: 'apply_suggestions',
      sheet: 0,
      code: 'numeric-in-text-column',
      column_id: column,
    });
    expect(result.changed).toBe(3);
    const cells = (await rows(t, info.id)).rows.map((row) => row.cells[String(column)]);
    expect(cells).toEqual(['33140009101', '33140009102', '33140009103', '+33140009104']);
    const after = await issues(t, info.id);
    expect(after.issues.filter((issue) => issue.code === 'numeric-in-text-column')).toEqual([]);
    expect(after.fixable.filter((entry) => entry.code === 'numeric-in-text-column')).toEqual([]);
    const history = await t.get(`/workstation/workbooks/${info.id}/history/`);
    expect((history.body.history as { op: string }[]).map((entry) => entry.op)).toEqual(['apply_suggestions']);

    const undone = await t.call('POST', `/workstation/workbooks/${info.id}/undo/`, { revision: result.revision });
    expect(undone.status, undone.text).toBe(200);
    expect((await rows(t, info.id)).rows.map((row) => row.cells[String(column)])).toEqual([...numbers, '+33140009104']);

    // Nothing left to fix: a 400 that says so, and no revision.
    const fixed = await edit(t, info.id, undone.body.revision, {
      op: 'apply_suggestions',
      sheet: 0,
      code: 'numeric-in-text-column',
      column_id: column,
    });
    const none = await t.call('POST', `/workstation/workbooks/${info.id}/edits/`, {
      revision: fixed.revision,
      edit: { op: 'apply_suggestions', sheet: 0, code: 'numeric-in-text-column', column_id: column },
    });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('bad-edit');
    expect(none.body.message).toMatch(/has a suggested fix/);
  });
});

async function untilStopped(id: string): Promise<WorkbookInfo> {
  for (;;) {
    const info = await settled(t, id);
    if (info.state !== 'loading') return info;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('cancel a load', () => {
  it('stops after the running batch: loaded rows stay loaded, the rest load later, none twice', async () => {
    const total = 3000;
    const sheetRows = Array.from({ length: total }, (_, index) => [
      PARIS,
      'add',
      null,
      `+3319${String(index).padStart(7, '0')}`,
      null,
      `Bulk ${index}`,
    ]);
    const { info } = await stage(t, await compactWorkbook('LineRelation', HEADER, sheetRows));
    const nothing = await t.call('POST', `/workstation/workbooks/${info.id}/load/cancel/`);
    expect(nothing.status).toBe(409);
    expect(nothing.body.code).toBe('not-loading');

    const started = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: info.revision, allow_errors: true });
    expect(started.status, started.text).toBe(202);
    const canceled = await t.call('POST', `/workstation/workbooks/${info.id}/load/cancel/`);
    expect(canceled.status, canceled.text).toBe(202);
    const stopped = await untilStopped(info.id);
    expect(stopped.state).toBe('failed');
    const load = stopped.load;
    if (!load) throw new Error('no load info');
    expect(load.not_run).toBeGreaterThan(0);
    expect(load.loaded + load.failed + load.not_run).toBe(total);
    const parent = await t.get(`/api/tool/Transaction/${(started.body as WorkbookLoadAnswer).transaction_id}/`);
    expect(parent.body.data.message).toMatch(/^Canceled by admin: \d+ of 3000 rows ran/);

    const firstRun = new Map((await rows(t, info.id)).rows.map((row) => [row.id, row.outcome?.transaction_id]));
    const rest = await t.call('POST', `/workstation/workbooks/${info.id}/load/`, { revision: stopped.revision, allow_errors: true });
    expect(rest.status, rest.text).toBe(202);
    expect((rest.body as WorkbookLoadAnswer).rows).toBe(load.not_run + load.failed);
    const done = await untilStopped(info.id);
    expect(done.load?.not_run).toBe(0);
    expect((done.load?.loaded ?? 0) + (done.load?.failed ?? 0)).toBe(total);
    // A row the first run loaded kept its transaction: it did not run again.
    for (const row of (await rows(t, info.id)).rows) {
      if (row.outcome?.status === 'loaded' && firstRun.get(row.id) !== undefined) {
        expect(row.outcome.transaction_id).toBe(firstRun.get(row.id));
      }
    }
  });
});
