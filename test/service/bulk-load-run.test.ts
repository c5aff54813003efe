import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopLoad } from '../../main/service/bulkload/load-run';
import type { ParsedRow, ParsedSheet, ParsedWorkbook } from '../../main/service/sheets/sheet-types';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const row = (rowNumber: number, action: ParsedRow['action'], data: ParsedRow['data'], extra: Partial<ParsedRow> = {}): ParsedRow => ({
  rowNumber,
  action,
  data,
  columns: {},
  ...extra,
});
const sheet = (name: string, modelType: string, rows: ParsedRow[], hierarchy?: string): ParsedSheet => ({
  name,
  modelType,
  layout: 'directive',
  directive: { entity: modelType, hierarchy, parallel: false, evaluateMacros: false },
  rows,
});

function caller(role: 'admin' | 'operator' = 'admin', path = ACME) {
  const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
  const node = t.service.store.nodes.getByPath(path);
  if (!node) throw new Error(path);
  return { principal: { pkid: admin.pkid, username: 'loader', role, hierarchyPkid: node.pkid }, callerPath: path };
}

async function load(workbook: ParsedWorkbook, who = caller()) {
  const node = t.service.store.nodes.getByPath(ACME);
  if (!node) throw new Error('no Acme');
  const submitted = t.service.loads.start(who, t.service.loads.spoolParsed(who.principal.username, workbook, node), node);
  await submitted.done;
  return (await t.get(`/api/tool/Transaction/${submitted.transactionId}/`)).body.data;
}

const inventory = async (number: string): Promise<string> =>
  (
    await t.get(
      `/api/data/InternalNumberInventory/${q(ACME, `&filter_field=internal_number&filter_condition=equals&filter_text=${encodeURIComponent(number)}`)}`,
    )
  ).body.resources[0]?.data.status;

describe('running a bulk load', () => {
  it('runs every row as its own transaction, a failed row alone rolled back, and counts them', async () => {
    const workbook: ParsedWorkbook = {
      fileName: 'lines.xlsx',
      issues: [],
      sheets: [
        sheet(
          'Lines',
          'relation/LineRelation',
          [
            row(5, 'add', { pattern: '+33140001040', alertingName: 'Row Five' }, { template: 'Acme Line Defaults' }),
            row(6, 'add', { pattern: '+33140001095', alertingName: 'Reserved number' }),
            row(7, 'modify', { pattern: '+33140001040', routePartitionName: '', alertingName: 'Row Seven' }),
          ],
          PARIS,
        ),
        sheet('Countries', 'data/Countries', [row(5, 'add', { country_name: 'Greece', iso_code: 'GR' }, { hierarchy: ACME })]),
      ],
    };
    const parent = await load(workbook);
    expect(parent.detail).toBe('[ 3/4 ] succeeded from [ 2 ] sheet in lines.xlsx');
    expect(parent.status).toBe('Success With Async Failures');
    expect(parent.action).toBe('Execute Bulk Load');
    expect(parent.sub_transactions.map((sub: { status: string }) => sub.status)).toEqual(['Success', 'Fail', 'Success', 'Success']);
    // Each row's id is a UUID v4 of its own, as every transaction's (decisions.md).
    const ids = parent.sub_transactions.map((sub: { href: string }) => sub.href.split('/').at(-2));
    expect(ids.every((id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(4);
    const failed = await t.get(parent.sub_transactions[1].href);
    expect(failed.body.data).toMatchObject({ rolled_back: 'Yes', message: expect.stringMatching(/\+33140001095 is Reserved/) });
    const lines = await t.get(
      `/api/relation/LineRelation/${q(PARIS, '&filter_field=pattern&filter_condition=equals&filter_text=%2B33140001040&summary=false')}`,
    );
    expect(lines.body.resources[0].data).toMatchObject({ alertingName: 'Row Seven', description: 'Row Five line', usage: 'Device' });
    expect(await inventory('+33140001040')).toBe('Used');
    expect(await inventory('+33140001095')).toBe('Reserved');
    expect(
      (await t.get(`/api/data/Countries/${q(ACME, '&filter_field=iso_code&filter_condition=equals&filter_text=GR')}`)).body.pagination
        .total,
    ).toBe(1);
  });

  it('lets a row use a template that an earlier row of the same load created', async () => {
    // Templates are looked up once per batch: a row that writes one must be seen by the next rows.
    const parent = await load({
      fileName: 'template-then-lines.xlsx',
      issues: [],
      sheets: [
        sheet(
          'Early',
          'relation/LineRelation',
          [row(5, 'add', { pattern: '+33140001061', alertingName: 'Too Early' }, { template: 'Paris Fresh Lines' })],
          PARIS,
        ),
        sheet(
          'Templates',
          'data/ConfigurationTemplate',
          [
            row(5, 'add', {
              name: 'Paris Fresh Lines',
              target_model_type: 'relation/LineRelation',
              merge_strategy: 'merge',
              template: { description: 'fresh {{ input.alertingName }}' },
            }),
          ],
          PARIS,
        ),
        sheet(
          'Late',
          'relation/LineRelation',
          [row(5, 'add', { pattern: '+33140001062', alertingName: 'Just In Time' }, { template: 'Paris Fresh Lines' })],
          PARIS,
        ),
      ],
    });
    expect(parent.sub_transactions.map((sub: { status: string }) => sub.status)).toEqual(['Fail', 'Success', 'Success']);
    const lines = await t.get(
      `/api/relation/LineRelation/${q(PARIS, '&filter_field=pattern&filter_condition=equals&filter_text=%2B33140001062&summary=false')}`,
    );
    expect(lines.body.resources[0].data.description).toBe('fresh Just In Time');
  });

  it('deletes by business key, and fails a row whose target is missing', async () => {
    const parent = await load({
      fileName: 'cleanup.xlsx',
      issues: [],
      sheets: [
        sheet(
          'Lines',
          'relation/LineRelation',
          [
            row(5, 'delete', { pattern: '+33140001040', routePartitionName: '' }),
            row(6, 'delete', { pattern: '+33149999999', routePartitionName: '' }),
          ],
          PARIS,
        ),
      ],
    });
    expect(parent.detail).toBe('[ 1/2 ] succeeded from [ 1 ] sheet in cleanup.xlsx');
    expect(await inventory('+33140001040')).toBe('Available');
    const missing = await t.get(parent.sub_transactions[1].href);
    expect(missing.body.data.message).toMatch(
      /no Line Relation with Directory Number '\+33149999999' and Route Partition '' at sys.hcs.Telco.Acme.Paris to delete/,
    );
  });

  it('refuses rows outside the caller reach or role, row by row', async () => {
    const before = t.snapshot();
    const parent = await load(
      {
        fileName: 'reach.xlsx',
        issues: [],
        sheets: [sheet('Lines', 'relation/LineRelation', [row(5, 'add', { pattern: '+33140001041' }, { hierarchy: LONDON })], PARIS)],
      },
      caller('admin', PARIS),
    );
    expect(parent.status).toBe('Fail');
    expect((await t.get(parent.sub_transactions[0].href)).body.data.message).toMatch(/^Permission Denied/);
    const operator = await load(
      {
        fileName: 'role.xlsx',
        issues: [],
        sheets: [sheet('Lines', 'relation/LineRelation', [row(5, 'add', { pattern: '+33140001042' })], PARIS)],
      },
      caller('operator'),
    );
    expect((await t.get(operator.sub_transactions[0].href)).body.data.message).toMatch(/^Permission Denied/);
    expect(t.snapshot()).toBe(before);
  });
});

describe('users from a sheet', () => {
  it('hashes a row password like the API does: the user signs in, the password is never data', async () => {
    const parent = await load({
      fileName: 'users.xlsx',
      issues: [],
      sheets: [
        sheet('Users', 'data/User', [row(5, 'add', { username: 'sheet.user', role: 'readonly', password: 'from-a-sheet-1' })], PARIS),
      ],
    });
    expect(parent.detail).toBe('[ 1/1 ] succeeded from [ 1 ] sheet in users.xlsx');
    const asUser = { authorization: `Basic ${Buffer.from('sheet.user:from-a-sheet-1').toString('base64')}` };
    expect((await t.get(`/api/relation/LineRelation/${q(PARIS)}`, asUser)).status).toBe(200);
    const stored = await t.get(
      `/api/data/User/${q(PARIS, '&filter_field=username&filter_condition=equals&filter_text=sheet.user&summary=false')}`,
    );
    expect(stored.body.resources[0].data).toEqual({ username: 'sheet.user', role: 'readonly' });
  });
});

describe('a load stopped part-way', () => {
  it('lists as not run exactly the rows after the committed count, within a spool entry too', async () => {
    const node = t.service.store.nodes.getByPath(ACME);
    if (!node) throw new Error('no Acme');
    const rows = Array.from({ length: 250 }, (_, i) => row(i + 5, 'add', { country_name: `Stopland ${i}`, iso_code: `S${i}` }));
    const spooled = t.service.loads.spoolParsed(
      'loader',
      { fileName: 'stopped.xlsx', issues: [], sheets: [sheet('Countries', 'data/Countries', rows, ACME)] },
      node,
    );
    // As a process killed after committing a batch that ended inside the second spool entry
    // (rows are spooled a hundred to an entry): the count says 130 ran.
    const { bulkLoads, transactions, db } = t.service.store;
    db.transaction(() => bulkLoads.ran(spooled.load_id, 0, 130, 130))();
    const stopped = stopLoad(
      { store: t.service.store, db, repo: transactions, now: () => '2026-11-25T10:00:00.000000', onInternalError: () => undefined },
      spooled,
      'Transaction canceled: the service stopped before this row ran.',
    );
    expect(stopped).toBe(120);
    const details = transactions.children(spooled.load_id).map((child) => child.detail);
    expect(details).toHaveLength(120);
    expect(details[0]).toMatch(/^Row 135 of sheet 'Countries': Create data\/Countries Stopland 130\b/);
    expect(details[119]).toMatch(/^Row 254 of sheet 'Countries'/);
    expect(bulkLoads.get(spooled.load_id)).toBeUndefined();
    expect(bulkLoads.next(spooled.load_id, -1, 10)).toEqual([]);
  });
});
