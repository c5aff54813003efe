import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/**
 * Issue 11, finding 6: a Paris operator got 403 for `sys.hcs.Telco.Acme.London` and 404 for
 * `sys.hcs.Telco.Acme.NoSuchSite`, so it could list its sibling sites; the 403 for London's pkid
 * named London's path. Outside the caller's reach every hierarchy now gets one answer.
 */
let t: TestService;
const operator = { authorization: `Basic ${Buffer.from('paris.watcher:watcher-pw-123').toString('base64')}` };
const MADE_UP = 'sys.hcs.Telco.Acme.NoSuchSite';
let londonPkid: string;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const made = await t.call('POST', `/api/data/User/${q(PARIS)}`, {
    data: { username: 'paris.watcher', role: 'operator', password: 'watcher-pw-123' },
  });
  if (made.status !== 200) throw new Error(`setup: ${made.text}`);
  const london = await t.get(`/api/data/HierarchyNode/${q(ACME, '&filter_field=name&filter_condition=equals&filter_text=London')}`);
  londonPkid = london.body.resources[0].meta.pkid;
});
afterAll(() => t.close());

/** What a caller can tell two answers apart by: status, headers and body. */
const seen = (reply: Reply) => ({ status: reply.status, headers: reply.headers, text: reply.text });

/** Every route family that takes a hierarchy, as the Paris operator; the status expected when not 403. */
const asked: [string, (hierarchy: string) => Promise<Reply>, number?][] = [
  ['list', (h) => t.get(`/api/relation/LineRelation/${q(h)}`, operator)],
  ['list up', (h) => t.get(`/api/relation/LineRelation/${q(h, '&traversal=up')}`, operator)],
  ['add form', (h) => t.get(`/api/relation/LineRelation/add/${q(h)}`, operator)],
  ['search', (h) => t.get(`/api/tool/Search/?filter_hierarchy=${encodeURIComponent(h)}&query=Paris`, operator)],
  ['transactions', (h) => t.get(`/api/tool/Transaction/${q(h)}`, operator)],
  ['create', (h) => t.call('POST', `/api/data/Countries/${q(h)}`, { data: { country_name: 'Probe', iso_code: 'PB' } }, operator)],
  ['export', (h) => t.call('POST', `/api/relation/LineRelation/export/${q(h)}`, {}, operator)],
  ['validate', (h) => t.call('POST', `/api/tool/BulkLoad/${q(h, '&method=validate')}`, { bulkload_file: 'x.xlsx' }, operator)],
  // A parameter checked after the node is found and before its reach answered 400 for London and
  // 403 for a made-up site: parameters are now read first, so both get the same 400.
  ['list, bad limit', (h) => t.get(`/api/relation/LineRelation/${q(h, '&limit=many')}`, operator), 400],
  ['transactions, bad limit', (h) => t.get(`/api/tool/Transaction/${q(h, '&limit=many')}`, operator), 400],
  ['export, bad limit', (h) => t.call('POST', `/api/relation/LineRelation/export/${q(h, '&limit=many')}`, {}, operator), 400],
  [
    'export of a search',
    (h) =>
      t.call(
        'POST',
        `/api/export/export_data/?url=/api/tool/Search/&hierarchy=${encodeURIComponent(h)}`,
        { query: 'Paris', export_data_type: 'raw' },
        operator,
      ),
  ],
];

describe("hierarchies outside the caller's reach", () => {
  it('gives the Paris operator the same answer for London and for a made-up site, and changes nothing', async () => {
    const before = t.snapshot({ withTransactions: true });
    for (const [name, ask, status = 403] of asked) {
      const london = await ask(LONDON);
      const madeUp = await ask(MADE_UP);
      expect(london.status, name).toBe(status);
      expect(seen(madeUp), name).toEqual(seen(london));
      if (status === 403) expect(london.body.message, name).toMatch(/^Permission Denied/);
      expect(london.text, name).not.toMatch(/London|NoSuchSite/);
    }
    expect(t.snapshot({ withTransactions: true })).toBe(before);
  });

  it("never names London's path in the 403 for London's pkid, and answers an unknown pkid alike", async () => {
    const byPkid = await t.get(`/api/data/HierarchyNode/${londonPkid}/`, operator);
    expect(byPkid.status).toBe(403);
    expect(byPkid.text).not.toMatch(/London/);
    const asHierarchy = await t.get(`/api/relation/LineRelation/${q(londonPkid)}`, operator);
    const unknownPkid = await t.get(`/api/relation/LineRelation/${q('0123456789abcdef01234567')}`, operator);
    expect(asHierarchy.status).toBe(403);
    expect(seen(unknownPkid)).toEqual(seen(asHierarchy));
  });

  it("still answers 404 for a made-up node within the caller's reach, and for the root admin anywhere", async () => {
    const inside = await t.get(`/api/relation/LineRelation/${q(`${PARIS}.Nowhere`)}`, operator);
    expect([inside.status, inside.body.code]).toEqual([404, 'hierarchy-not-found']);
    const root = await t.get(`/api/relation/LineRelation/${q(MADE_UP)}`);
    expect([root.status, root.body.code]).toEqual([404, 'hierarchy-not-found']);
    const rootPkid = await t.get(`/api/relation/LineRelation/${q('0123456789abcdef01234567')}`);
    expect(rootPkid.status).toBe(404);
  });
});
