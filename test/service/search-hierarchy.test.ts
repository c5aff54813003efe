import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../main/service/api-types';
import { businessKeyOf } from '../../main/service/domain/business-key';
import { requireModel } from '../../main/service/models/registry';
import { newPkid } from '../../main/service/store/ids';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/**
 * Where a search looks (the spec's Search rules 1-5): the direction flags, filter_hierarchy
 * over hierarchy, the caller's own node, the caller's reach, and the 1,000-result cap.
 */
let t: TestService;
const TELCO = 'sys.hcs.Telco';
const BULK = `${ACME}.Bulk`;
const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const PARIS_USER = basic('paris.reader', 'paris-reader-pw');
const LONDON_OPERATOR = basic('london.operator', 'london-operator-pw');

const paris = (...indexes: number[]): string[] => indexes.map((index) => `+3314000${1000 + index}`);
const london = (...indexes: number[]): string[] => indexes.map((index) => `+4420794${1000 + index}`);

/** 1,200 lines and 1,100 inventory numbers at the Bulk site, inserted directly (in shuffled order). */
const BULK_LINES = 1200;
const BULK_NUMBERS = 1100;
const bulkPattern = (index: number): string => `+4930${String(index).padStart(6, '0')}`;
const bulkNumber = (index: number): string => `+4989${String(index).padStart(6, '0')}`;

function insertBulk(): void {
  const store = t.service.store;
  const site = store.nodes.getByPath(BULK);
  if (!site) throw new Error('no Bulk site');
  const insert = (modelType: string, data: JsonObject): void =>
    store.instances.insert({
      pkid: newPkid(),
      modelType,
      hierarchyPkid: site.pkid,
      data,
      bkey: businessKeyOf(requireModel(modelType), data, site.pkid),
    });
  // Reversed, so that the answer's order comes from the search, not from the insertion.
  store.db.transaction(() => {
    for (let index = BULK_LINES - 1; index >= 0; index -= 1) {
      insert('relation/LineRelation', {
        pattern: bulkPattern(index),
        routePartitionName: 'Bulk-PT',
        alertingName: `Bulk Line ${index}`,
        usage: 'Device',
      });
    }
    for (let index = BULK_NUMBERS - 1; index >= 0; index -= 1) {
      insert('data/InternalNumberInventory', {
        internal_number: bulkNumber(index),
        status: 'Available',
        usage: '',
        description: 'Bulk block',
      });
    }
  })();
}

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const made = [
    await t.call('POST', `/api/data/User/${q(PARIS)}`, {
      data: { username: 'paris.reader', role: 'readonly', password: 'paris-reader-pw' },
    }),
    await t.call('POST', `/api/data/User/${q(LONDON)}`, {
      data: { username: 'london.operator', role: 'operator', password: 'london-operator-pw' },
    }),
    await t.call('POST', `/api/data/HierarchyNode/${q(ACME)}`, {
      data: { name: 'Bulk', node_type: 'Site', description: 'Generated lines' },
    }),
  ];
  for (const reply of made) expect(reply.status, reply.text).toBe(200);
  insertBulk();
});
afterAll(() => t.close());

interface SearchOptions {
  hierarchy?: string;
  filter?: string;
  flag?: 'hierarchy_paths' | 'hierarchy_shallow' | 'hierarchy_all';
  authorization?: string;
}

/** POST, as the spec's table shows it: hierarchies in the query string, the flags in the body. */
function search(query: string, options: SearchOptions = {}): Promise<Reply> {
  const params = new URLSearchParams({ format: 'json' });
  if (options.hierarchy) params.set('hierarchy', options.hierarchy);
  if (options.filter) params.set('filter_hierarchy', options.filter);
  const body = { query, ...(options.flag ? { [options.flag]: true } : {}) };
  return t.call(
    'POST',
    `/api/tool/Search/?${params.toString()}`,
    body,
    options.authorization ? { authorization: options.authorization } : {},
  );
}

async function found(query: string, field: string, options: SearchOptions = {}): Promise<unknown[]> {
  const reply = await search(query, options);
  expect(reply.status, `${query}: ${reply.text.slice(0, 300)}`).toBe(200);
  return reply.body.resources.map((resource: { data: Record<string, unknown> }) => resource.data[field]);
}

describe('search direction', () => {
  // HierarchyNode instances sit at their parent: sys and hcs at sys, Telco at sys.hcs, Acme at Telco...
  it('searches down by default, and up, local or both with the body flags', async () => {
    const names = (flag?: SearchOptions['flag']): Promise<unknown[]> => found('data/HierarchyNode', 'name', { hierarchy: TELCO, flag });
    expect(await names()).toEqual(['Acme', 'Bulk', 'London', 'Paris']);
    expect(await names('hierarchy_shallow')).toEqual(['Acme']);
    expect(await names('hierarchy_paths')).toEqual(['Acme', 'hcs', 'sys', 'Telco']);
    expect(await names('hierarchy_all')).toEqual(['Acme', 'Bulk', 'hcs', 'London', 'Paris', 'sys', 'Telco']);
  });

  it('takes the flags from the query string on GET', async () => {
    const get = (extra: string): Promise<Reply> =>
      t.get(`/api/tool/Search/${q(PARIS, `&query=${encodeURIComponent('data/Countries with iso_code is fr')}${extra}`)}`);
    expect((await get('')).body.resources).toEqual([]);
    expect((await get('&hierarchy_paths=true')).body.resources.map((r: { data: { country_name: string } }) => r.data.country_name)).toEqual(
      ['France'],
    );
    const both = await get('&hierarchy_paths=true&hierarchy_shallow=1');
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({
      code: 'bad-parameter',
      message: expect.stringContaining('hierarchy_paths and hierarchy_shallow cannot both be true'),
    });
    expect((await get('&hierarchy_all=maybe')).body.code).toBe('bad-parameter');
  });

  it('lets filter_hierarchy win over hierarchy', async () => {
    const query = 'relation/LineRelation with alertingName like martin';
    expect(await found(query, 'pattern', { hierarchy: LONDON, filter: PARIS })).toEqual(paris(0, 1));
    expect(await found(query, 'pattern', { filter: LONDON })).toEqual(london(0, 1));
    const get = await t.get(`/api/tool/Search/?hierarchy=${PARIS}&filter_hierarchy=${LONDON}&query=${encodeURIComponent(query)}`);
    expect(get.body.resources.map((r: { data: { pattern: string } }) => r.data.pattern)).toEqual(london(0, 1));
  });

  it("searches from the caller's own node when no hierarchy is given", async () => {
    const query = 'relation/LineRelation with alertingName like martin';
    expect(await found(query, 'pattern')).toEqual([...paris(0, 1), ...london(0, 1)]);
    expect(await found(query, 'pattern', { authorization: PARIS_USER })).toEqual(paris(0, 1));
    expect(await found(query, 'pattern', { authorization: LONDON_OPERATOR })).toEqual(london(0, 1));
    const countries = await found('data/Countries', 'country_name', { authorization: PARIS_USER, flag: 'hierarchy_paths' });
    expect(countries).toEqual(['France', 'Germany', 'Spain', 'United Kingdom', 'United States']);
  });
});

describe('search reach', () => {
  it('denies a node outside the caller reach: a sibling, or an ancestor without the up flag', async () => {
    const denied: SearchOptions[] = [
      { filter: LONDON },
      { hierarchy: LONDON },
      { hierarchy: PARIS, filter: LONDON },
      { filter: LONDON, flag: 'hierarchy_paths' },
      { filter: LONDON, flag: 'hierarchy_all' },
      { filter: ACME },
      { filter: ACME, flag: 'hierarchy_shallow' },
      { filter: 'sys' },
    ];
    for (const options of denied) {
      const reply = await search('relation/LineRelation with alertingName like martin', { ...options, authorization: PARIS_USER });
      expect(reply.status, JSON.stringify(options)).toBe(403);
      expect(reply.body.code).toBe('permission-denied');
      expect(reply.body.message).toMatch(/^Permission Denied: paris\.reader works at sys\.hcs\.Telco\.Acme\.Paris and cannot reach /);
    }
  });

  it('lets the caller search up from an ancestor, reading its resources but never a sibling', async () => {
    const numbers = await found('data/InternalNumberInventory with internal_number startswith +4420794100', 'internal_number', {
      filter: ACME,
      flag: 'hierarchy_paths',
      authorization: PARIS_USER,
    });
    expect(numbers).toEqual(london(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    const lines = await found('relation/LineRelation with alertingName like martin', 'pattern', {
      filter: ACME,
      flag: 'hierarchy_all',
      authorization: PARIS_USER,
    });
    expect(lines).toEqual(paris(0, 1));
    // Up and down from the customer: its own numbers, the caller's device lines, no London line.
    const bare = await search('+44207941000', { filter: ACME, flag: 'hierarchy_all', authorization: PARIS_USER });
    expect(
      bare.body.resources.map((r: { meta: { model_type: string; hierarchy: string } }) => `${r.meta.model_type} ${r.meta.hierarchy}`),
    ).toEqual([`data/InternalNumberInventory ${ACME}`]);
    const nodes = await found('data/HierarchyNode', 'name', { filter: ACME, flag: 'hierarchy_all', authorization: PARIS_USER });
    expect(nodes).toEqual(['Acme', 'Bulk', 'hcs', 'London', 'Paris', 'sys', 'Telco']);
  });

  it('never answers instances outside the caller reach, even searching up and down from its own node', async () => {
    // Every number in the tree starts with +: the customer's inventory and Paris's device lines are
    // in reach; London's and Bulk's are not.
    const everything = await search('+', { flag: 'hierarchy_all', authorization: PARIS_USER });
    const where = everything.body.resources.map(
      (r: { meta: { model_type: string; hierarchy: string } }) => `${r.meta.model_type} ${r.meta.hierarchy}`,
    );
    expect([...new Set(where)]).toEqual([`data/InternalNumberInventory ${ACME}`, `device/cucm/Line ${PARIS}`]);
    expect(where).toHaveLength(220);
    const lines = await found('relation/LineRelation', 'pattern', { flag: 'hierarchy_all', authorization: LONDON_OPERATOR });
    expect(lines).toEqual(london(...Array.from({ length: 20 }, (_, index) => index)));
  });
});

describe('search cap', () => {
  it('answers at most 1,000 results: the first 1,000 in order, with no count beyond them', async () => {
    const reply = await search('relation/LineRelation with pattern startswith +4930', { hierarchy: BULK });
    expect(reply.body.pagination).toEqual({ skip: 0, limit: 1000, total: 1000, maximum_limit: 1000 });
    const patterns = reply.body.resources.map((r: { data: { pattern: string } }) => r.data.pattern);
    expect(patterns).toEqual(Array.from({ length: 1000 }, (_, index) => bulkPattern(index)));
    const like = await found('relation/LineRelation with alertingName like "bulk line"', 'pattern', { hierarchy: ACME });
    expect(like).toEqual(Array.from({ length: 1000 }, (_, index) => bulkPattern(index)));
    const under = await found('relation/LineRelation with pattern startswith +4930001', 'pattern', { hierarchy: BULK });
    expect(under).toEqual(Array.from({ length: 200 }, (_, index) => bulkPattern(1000 + index)));
  });

  it('caps a bare text across models too', async () => {
    const reply = await search('+4989', { hierarchy: ACME });
    expect(reply.body.pagination.total).toBe(1000);
    expect(reply.body.resources.map((r: { data: { internal_number: string } }) => r.data.internal_number)).toEqual(
      Array.from({ length: 1000 }, (_, index) => bulkNumber(index)),
    );
  });
});
