import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { openDatabase } from '../../main/service/store/db';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

let t: TestService;
beforeAll(async () => {
  t = await openTestService({ demo: true });
});
afterAll(() => t.close());

const lines = (hierarchy: string, extra = '') => t.get(`/api/relation/LineRelation/${q(hierarchy, extra)}`);
const patterns = (reply: { body: { resources: { data: { pattern: string } }[] } }) => reply.body.resources.map((r) => r.data.pattern);

describe('list paging and ordering', () => {
  it('pages with skip and limit, defaults to 50, and reports the total', async () => {
    const all = await lines(ACME, '&limit=2000');
    expect(all.body.pagination).toMatchObject({
      skip: 0,
      limit: 2000,
      total: 40,
      maximum_limit: 2000,
      order_by: 'pattern',
      direction: 'asc',
    });
    const sorted = [...patterns(all)].sort();
    expect(patterns(all)).toEqual(sorted);
    const page3 = await lines(ACME, '&skip=10&limit=5');
    expect(patterns(page3)).toEqual(sorted.slice(10, 15));
    const inventory = await t.get(`/api/data/InternalNumberInventory/${q(ACME)}`);
    expect(inventory.body.resources).toHaveLength(50);
    expect(inventory.body.pagination.limit).toBe(50);
  });

  it('sorts by any summary attribute in both directions, case-insensitively', async () => {
    const desc = await lines(PARIS, '&order_by=alertingName&direction=desc&limit=2000');
    const names = desc.body.resources.map((r: { data: { alertingName: string } }) => r.data.alertingName.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
  });

  it('counts only when asked: count=false reports a total of 0', async () => {
    expect((await lines(ACME, '&count=false')).body.pagination.total).toBe(0);
  });

  it('returns summary data by default and the whole instance with summary=false', async () => {
    const summary = await lines(PARIS, '&limit=1');
    expect(Object.keys(summary.body.resources[0].data).sort()).toEqual([
      'alertingName',
      'pattern',
      'routePartitionName',
      'summary_device',
      'usage',
    ]);
    const full = await lines(PARIS, '&limit=1&summary=false');
    expect(full.body.resources[0].data.callForwardNoAnswer.forwardToVoiceMail).toBe(true);
    expect(full.body.resources[0].data.hierarchy_path).toBe(PARIS);
  });

  it('follows traversal down, local and up', async () => {
    expect((await lines(ACME)).body.pagination.total).toBe(40);
    expect((await lines(ACME, '&traversal=local')).body.pagination.total).toBe(0);
    expect((await t.get(`/api/data/Countries/${q(PARIS, '&traversal=up')}`)).body.pagination.total).toBe(5);
    expect((await t.get(`/api/data/Countries/${q(PARIS)}`)).body.pagination.total).toBe(0);
    expect((await t.get(`/api/data/InternalNumberInventory/${q(PARIS, '&traversal=up')}`)).body.pagination.total).toBe(200);
  });

  it('takes the page from a Range header and answers with Content-Range', async () => {
    const reply = await t.get(`/api/relation/LineRelation/${q(ACME, '&limit=3')}`, { range: 'items=5-14' });
    expect(reply.body.resources).toHaveLength(10);
    expect(reply.headers['content-range']).toBe('items 5-14/40');
    const sorted = patterns(await lines(ACME, '&limit=100'));
    expect(patterns(reply)).toEqual(sorted.slice(5, 15));
    const past = await t.get(`/api/relation/LineRelation/${q(ACME)}`, { range: 'items=100-109' });
    expect(past.headers['content-range']).toBe('items */40');
    for (const bad of ['items=9-3', 'bytes=0-10', 'items=0-5000', 'items=a-b']) {
      const refused = await t.get(`/api/relation/LineRelation/${q(ACME)}`, { range: bad });
      expect(refused.status, bad).toBe(400);
      expect(refused.body.code).toBe('bad-range');
    }
  });

  it('answers schema=true with the schema and its meta', async () => {
    const reply = await lines(PARIS, '&schema=true&limit=1');
    expect(reply.body.schema.properties.pattern.required).toBe(true);
    expect(reply.body.meta).toMatchObject({
      model_type: 'relation/LineRelation',
      title: 'Line Relation',
      schema_version: '0.2.2',
      cached: true,
    });
    expect(reply.body.meta.summary_attrs[0]).toEqual({ name: 'pattern', title: 'Directory Number' });
    expect(reply.body.meta.actions.create).toMatchObject({ method: 'POST', support_async: true });
    const rules = await lines(PARIS, '&schema=true&schema_rules=true&limit=1');
    expect(rules.body.meta.field_display_policies.map((p: { name: string }) => p.name)).toEqual(['Acme Line Form']);
  });
});

describe('list filters', () => {
  const filter = (field: string, condition: string, text: string, extra = '') =>
    `&filter_field=${field}&filter_condition=${condition}&filter_text=${encodeURIComponent(text)}${extra}`;

  it('applies startswith, endswith, equals and contains', async () => {
    expect(patterns(await lines(ACME, filter('pattern', 'startswith', '+4420794100')))).toEqual(
      Array.from({ length: 10 }, (_, i) => `+4420794100${i}`),
    );
    expect(patterns(await lines(ACME, filter('pattern', 'endswith', '1019')))).toEqual(['+33140001019', '+44207941019']);
    expect(patterns(await lines(ACME, filter('pattern', 'equals', '+33140001005')))).toEqual(['+33140001005']);
    expect((await lines(ACME, filter('alertingName', 'contains', '(2)'))).body.pagination.total).toBe(20);
  });

  it('defaults to contains, ignoring case, and honours ignore_case=false', async () => {
    expect((await lines(PARIS, '&filter_field=alertingName&filter_text=ALICE')).body.pagination.total).toBe(2);
    expect((await lines(PARIS, '&filter_field=alertingName&filter_text=ALICE&ignore_case=false')).body.pagination.total).toBe(0);
    expect((await lines(PARIS, filter('alertingName', 'startswith', 'alice', '&ignore_case=false'))).body.pagination.total).toBe(0);
    expect((await lines(PARIS, filter('alertingName', 'startswith', 'Alice', '&ignore_case=false'))).body.pagination.total).toBe(2);
    expect((await lines(PARIS, filter('alertingName', 'equals', 'alice martin'))).body.pagination.total).toBe(1);
  });

  it('combines repeated filter keys by position into sets', async () => {
    const both = await lines(
      ACME,
      '&filter_field=pattern&filter_field=alertingName&filter_condition=startswith&filter_condition=contains' +
        '&filter_text=%2B33&filter_text=(2)&ignore_case=true&ignore_case=true',
    );
    expect(both.body.pagination.total).toBe(10);
    expect(patterns(both).every((p: string) => p.startsWith('+33'))).toBe(true);
  });

  it('ignores the other sets when one uses equals', async () => {
    const reply = await lines(
      ACME,
      '&filter_field=alertingName&filter_field=pattern&filter_condition=contains&filter_condition=equals' +
        '&filter_text=nobody&filter_text=%2B44207941003',
    );
    expect(patterns(reply)).toEqual(['+44207941003']);
  });

  it('refuses filter_field outside summary_attrs, naming what is allowed', async () => {
    const reply = await lines(ACME, filter('callForwardAll', 'contains', 'x'));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/callForwardAll.*pattern, routePartitionName/);
  });

  it('applies the Subscriber exceptions: fixed filter fields, always summary, never up', async () => {
    const byLastname = await t.get(`/api/relation/Subscriber/${q(ACME, filter('lastname', 'equals', 'Martin'))}`);
    expect(byLastname.body.pagination.total).toBe(2);
    const full = await t.get(`/api/relation/Subscriber/${q(LONDON, '&summary=false&limit=1')}`);
    expect(Object.keys(full.body.resources[0].data).every((k) => k !== 'extra')).toBe(true);
    const up = await t.get(`/api/relation/Subscriber/${q(LONDON, '&traversal=up')}`);
    expect(up.body.pagination.total).toBe(10);
    const acmeUp = await t.get(`/api/relation/Subscriber/${q(ACME, '&traversal=up')}`);
    expect(acmeUp.body.pagination.total).toBe(20);
    expect((await t.get(`/api/relation/Subscriber/${q(ACME, filter('userid', 'startswith', 'paris.'))}`)).body.pagination.total).toBe(10);
  });
});

describe('list totals', () => {
  it('follow every change, by this service at once and by another connection within 100 ms', async () => {
    const total = async (): Promise<number> => (await t.get(`/api/data/Countries/${q('sys')}`)).body.pagination.total;
    const before = await total();
    expect(await total()).toBe(before);
    const made = await t.call('POST', `/api/data/Countries/${q('sys')}`, { data: { country_name: 'Counted', iso_code: 'CX' } });
    expect(await total()).toBe(before + 1);
    const other = openDatabase(workspaceFile(t.dataDir));
    other.prepare('DELETE FROM instances WHERE pkid = ?').run(made.body.pkid);
    other.close();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await total()).toBe(before);
  });
});
