import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWorkbook, fixture, issuesOf, line, LINE_HEADER, upload, validate } from './bulk-validate-helpers';
import { ACME, openTestService, PARIS, q, type TestService } from './helpers';
import { transactionData } from '../../main/service/routes/transaction-view';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const bulkLoad = (file: string, extra = '') =>
  t.call('POST', `/api/tool/BulkLoad/${q(ACME, `&method=bulkload_spreadsheet${extra}`)}`, {
    bulkload_file: file,
    execute_immediately: true,
  });

async function subStatuses(transactionId: string): Promise<{ row: number; status: string; message: string }[]> {
  const parent = await t.get(`/api/tool/Transaction/${transactionId}/`);
  const rows = [];
  for (const sub of parent.body.data.sub_transactions) {
    const child = (await t.get(sub.href)).body.data;
    rows.push({ row: Number(/^Row (\d+)/.exec(child.detail)?.[1]), status: child.status, message: child.message });
  }
  return rows;
}

/** The demo's Paris phones: SEP00AA00000000 to SEP00AA00000009. */
const phone = (i: number): string => `SEP00AA00000${String(i).padStart(3, '0')}`;

describe('bulk load', () => {
  it('loads a workbook that validated clean with zero row failures', async () => {
    const rows = Array.from({ length: 30 }, (_, i) =>
      line({
        pattern: `+3314000${1021 + i}`,
        name: `Loaded ${i + 1}`,
        device: phone(i % 10),
        template: i % 2 ? 'Acme Line Defaults' : undefined,
      }),
    );
    const bytes = await compactWorkbook('LineRelation', LINE_HEADER, rows);
    expect((await upload(t, 'clean.xlsx', bytes, PARIS)).status).toBe(200);
    const checked = await validate(t, 'clean.xlsx', ACME);
    expect(checked.body.summary).toMatchObject({ errors: 0, add: 30, modify: 0, delete: 0 });
    const loaded = await bulkLoad('clean.xlsx');
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ success: true, status: 'Success', detail: '[ 30/30 ] succeeded from [ 1 ] sheet in clean.xlsx' });
    const lines = await t.get(
      `/api/relation/LineRelation/${q(PARIS, '&filter_field=alertingName&filter_condition=startswith&filter_text=Loaded&limit=100&summary=false')}`,
    );
    expect(lines.body.pagination.total).toBe(30);
    const templated = lines.body.resources.find((r: { data: { alertingName: string } }) => r.data.alertingName === 'Loaded 2');
    expect(templated.data.description).toBe('Loaded 2 line');
  });

  it('fails exactly the rows validation flags, and loads the others', async () => {
    const rows = [
      line({ pattern: '+33140001060', name: 'Fine one' }),
      line({ pattern: '+33140001095', name: 'Reserved number' }),
      line({ pattern: '+33140001061', name: 'Fine two' }),
      line({ pattern: '+33140001061', name: 'Same number again' }),
      line({ pattern: '+33140001062', name: 'No such phone', device: 'SEPDEADBEEF0000' }),
      line({ pattern: 'not-a-number', name: 'Bad pattern' }),
      line({ pattern: '+33140001063', name: 'Fine three' }),
    ];
    const bytes = await compactWorkbook('LineRelation', LINE_HEADER, rows);
    await upload(t, 'mixed.xlsx', bytes, PARIS);
    const checked = await validate(t, 'mixed.xlsx', ACME);
    const flagged = [
      ...new Set(
        issuesOf(checked.body)
          .filter((issue) => issue.severity === 'error')
          .map((issue) => issue.row),
      ),
    ].sort((a, b) => a - b);
    expect(flagged).toEqual([3, 5, 6, 7]);
    const loaded = await bulkLoad('mixed.xlsx');
    expect(loaded.body).toMatchObject({
      status: 'Success With Async Failures',
      detail: '[ 3/7 ] succeeded from [ 1 ] sheet in mixed.xlsx',
    });
    const outcome = await subStatuses(loaded.body.transaction_id);
    expect(outcome.filter((row) => row.status === 'Fail').map((row) => row.row)).toEqual(flagged);
    expect(outcome.find((row) => row.row === 3)?.message).toMatch(/\+33140001095 is Reserved/);
  });

  it('refuses the whole load before any row when the file or its headers are wrong', async () => {
    const missing = await bulkLoad('never-uploaded.xlsx');
    expect(missing.status).toBe(404);
    const bytes = await compactWorkbook(
      'LineRelation',
      ['# Hierarchy Node', '# Directory Number', '# Colour'],
      [[PARIS, '+33140001070', 'red']],
    );
    await upload(t, 'bad-header.xlsx', bytes, PARIS);
    const afterUpload = t.snapshot({ withTransactions: true });
    const refused = await bulkLoad('bad-header.xlsx');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Colour/);
    expect(t.snapshot({ withTransactions: true })).toBe(afterUpload);
    // A schedule without its moment is refused too, before anything is queued.
    const scheduled = await t.call('POST', `/api/tool/BulkLoad/${q(ACME, '&method=bulkload_spreadsheet')}`, {
      bulkload_file: 'bad-header.xlsx',
      execute_immediately: false,
    });
    expect(scheduled.status).toBe(400);
  });

  it('answers nowait=true at once and runs the rows after', async () => {
    const bytes = await compactWorkbook('LineRelation', LINE_HEADER, [line({ pattern: '+33140001071', name: 'Later' })]);
    await upload(t, 'later.xlsx', bytes, PARIS);
    const started = await bulkLoad('later.xlsx', '&nowait=true');
    expect(started.status).toBe(202);
    await t.service.idle();
    const parent = await t.get(started.body.href);
    expect(parent.body.data).toMatchObject({ status: 'Success', detail: '[ 1/1 ] succeeded from [ 1 ] sheet in later.xlsx' });
  });

  it("counts a running load's sub-transactions in its parent as the table holds them, at every poll", async () => {
    // Every seventh row repeats the number before it: a duplicate, failed when it runs.
    const rows = Array.from({ length: 4_000 }, (_, i) =>
      line({ pattern: `+3315${String(i % 7 === 6 ? i - 1 : i).padStart(7, '0')}`, name: `Counted ${i}` }),
    );
    await upload(t, 'counted.xlsx', await compactWorkbook('LineRelation', LINE_HEADER, rows), PARIS);
    const started = await bulkLoad('counted.xlsx', '&nowait=true');
    expect(started.status).toBe(202);
    const store = t.service.store;
    const id = started.body.transaction_id as string;
    let midway = 0;
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      const parent = store.transactions.get(id);
      if (!parent || parent.status === 'Success' || parent.status === 'Fail' || parent.status === 'Success With Async Failures') break;
      // Between two of the load's batches, as a poll sees it: the answer against the table.
      const answered = transactionData(store, parent).sub_transaction_counts;
      expect(answered).toEqual(store.transactions.childCounts(parent));
      if (answered.total > 0 && answered.total < rows.length) midway += 1;
    }
    expect(midway).toBeGreaterThan(0);
    const done = (await t.get(started.body.href)).body.data;
    expect(done.sub_transaction_counts).toEqual({ total: 4_000, Success: 3_429, Fail: 571 });
  });

  it('loads the spec sheet written by LibreOffice like the one written by exceljs', async () => {
    const fixtures = ['line-relation-exceljs.xlsx', 'line-relation-libreoffice.xlsx'];
    const checked = [];
    for (const name of fixtures) {
      await upload(t, name, fixture(name), PARIS);
      const { errors, add, modify } = (await validate(t, name, ACME)).body.summary;
      checked.push({ errors, add, modify });
    }
    // The exceljs one stores some numbers as numeric cells on purpose: only its warnings differ.
    expect(checked[0]).toEqual(checked[1]);
    expect(checked[0].add).toBeGreaterThan(0);
  });
});
