import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSearch } from '../../main/service/search/run-search';
import { ACME, LONDON, openTestService, PARIS, q, type Reply, type TestService } from './helpers';

/**
 * Search queries over the demo world (seed/demo.ts) and a few lines made here at a Lyon site
 * whose names hold keywords, quotes and LIKE wildcards. Each query asserts its exact hits.
 */
let t: TestService;
const LYON = `${ACME}.Lyon`;

/** Demo lines: site prefix + (1000 + index); index 2i and 2i+1 belong to person i. */
const paris = (...indexes: number[]): string[] => indexes.map((index) => `+3314000${1000 + index}`);
const london = (...indexes: number[]): string[] => indexes.map((index) => `+4420794${1000 + index}`);
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const odd = range(0, 19).filter((index) => index % 2 === 1);

const LYON_LINES: [string, string, Record<string, unknown>?][] = [
  ['+33478000001', 'Sales and Marketing'],
  ['+33478000002', 'Research or Development'],
  ['+33478000003', "O'Brien Desk"],
  ['+33478000004', 'Reception with Headset', { rejectAnonymousCall: true }],
  ['+33478000005', '"Quoted" Lobby'],
  ['+33478000006', 'Is Like Equals'],
  ['+33478000007', '100% Support'],
  ['+33478000008', 'Desk a_b'],
  ['+33478000009', 'Desk aXb'],
];
const lyon = (...numbers: number[]): string[] => numbers.map((number) => `+3347800000${number}`);

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const site = await t.call('POST', `/api/data/HierarchyNode/${q(ACME)}`, {
    data: { name: 'Lyon', node_type: 'Site', description: 'Acme Lyon office' },
  });
  expect(site.status).toBe(200);
  for (const [pattern, alertingName, extra] of LYON_LINES) {
    const line = await t.call('POST', `/api/relation/LineRelation/${q(LYON)}`, {
      data: { pattern, routePartitionName: 'Lyon-PT', alertingName, ...extra },
    });
    expect(line.status, alertingName).toBe(200);
  }
});
afterAll(() => t.close());

const searchUrl = (query: string, hierarchy: string | null, extra = ''): string =>
  `/api/tool/Search/?format=json${hierarchy === null ? '' : `&hierarchy=${encodeURIComponent(hierarchy)}`}&query=${encodeURIComponent(query)}${extra}`;
const search = (query: string, hierarchy: string | null = ACME, extra = ''): Promise<Reply> => t.get(searchUrl(query, hierarchy, extra));

/** One summary attribute of every hit, in the order answered. */
const values = (reply: Reply, field: string): unknown[] =>
  reply.body.resources.map((resource: { data: Record<string, unknown> }) => resource.data[field]);
/** `model_type first-summary-value` of every hit, in the order answered. */
const hits = (reply: Reply): string[] =>
  reply.body.resources.map(
    (resource: { data: Record<string, unknown>; meta: { model_type: string } }) =>
      `${resource.meta.model_type} ${String(Object.values(resource.data)[0])}`,
  );

async function expectPatterns(query: string, expected: string[], hierarchy = ACME): Promise<void> {
  const reply = await search(query, hierarchy);
  expect(reply.status, `${query}: ${reply.text.slice(0, 300)}`).toBe(200);
  // Results come ordered by the first summary attribute, so the expectation is sorted too.
  expect(values(reply, 'pattern'), query).toEqual([...expected].sort());
  expect(reply.body.pagination.total, query).toBe(expected.length);
}

describe('search operators', () => {
  const cases: [string, string[]][] = [
    ['relation/LineRelation with pattern startswith +3314000100', paris(...range(0, 9))],
    ['relation/LineRelation with pattern is +44207941005', london(5)],
    ['relation/LineRelation with pattern equals +44207941005', london(5)],
    ['relation/LineRelation with alertingName like martin', [...paris(0, 1), ...london(0, 1)]],
    ['relation/LineRelation with alertingName contains "(2)"', [...paris(...odd), ...london(...odd)]],
    ['relation/LineRelation with pattern endswith 19', [...paris(19), ...london(19)]],
    ['relation/LineRelation with alertingName is "Emma Bernard"', [...paris(8), ...london(8)]],
    ["relation/LineRelation with alertingName equals 'EMMA BERNARD'", [...paris(8), ...london(8)]],
    ['relation/LineRelation with alertingName startswith hugo', [...paris(14, 15), ...london(14, 15)]],
    ['relation/LineRelation with alertingName endswith "n (2)"', [...paris(1, 15, 19), ...london(1, 15, 19)]],
    ['relation/LineRelation with summary_device is sep00aa00001003', london(6, 7)],
    // Non-ASCII text: matched exactly (SQLite folds ASCII only), without the raw-text prefilter.
    ['relation/LineRelation with alertingName like "é"', [...paris(4, 5), ...london(4, 5)]],
    ['relation/LineRelation with alertingName like chlo', [...paris(4, 5), ...london(4, 5)]],
    ['relation/LineRelation with rejectAnonymousCall is true', lyon(4)],
    ['relation/LineRelation with rejectAnonymousCall is FALSE and pattern startswith +334780', lyon(1, 2, 3, 5, 6, 7, 8, 9)],
    ['relation/LineRelation with callForwardNoAnswer.destination is +442079460999', london(...range(0, 19))],
    ['relation/LineRelation with callForwardNoAnswer.destination startswith +3314 and pattern endswith 3', paris(3, 13)],
  ];
  it.each(cases)('%s', (query, expected) => expectPatterns(query, expected));

  it('reads keywords and operators in any case', () =>
    expectPatterns('relation/LineRelation WITH pattern STARTSWITH +4420794101 AND usage IS device', london(...range(10, 19))));

  it('matches % and _ literally in like', async () => {
    await expectPatterns('relation/LineRelation with alertingName like "100%"', lyon(7));
    await expectPatterns('relation/LineRelation with alertingName like a_b', lyon(8));
    await expectPatterns('relation/LineRelation with alertingName like "desk a"', lyon(8, 9));
  });
});

describe('search quoting, brackets and precedence', () => {
  const cases: [string, string[]][] = [
    ["relation/LineRelation with alertingName is 'Sales and Marketing'", lyon(1)],
    ['relation/LineRelation with alertingName like "or development"', lyon(2)],
    ["relation/LineRelation with alertingName is 'O''Brien Desk'", lyon(3)],
    ["relation/LineRelation with alertingName startswith O'Brien", lyon(3)],
    ["relation/LineRelation with alertingName contains 'with headset'", lyon(4)],
    [`relation/LineRelation with alertingName is '"Quoted" Lobby'`, lyon(5)],
    ['relation/LineRelation with alertingName like """quoted"""', lyon(5)],
    ['relation/LineRelation with alertingName is "Is Like Equals" or alertingName like "with"', lyon(4, 6)],
    [
      'relation/LineRelation with pattern endswith 1000 or pattern endswith 1001 and routePartitionName is London-PT',
      [...paris(0), ...london(0, 1)],
    ],
    ['relation/LineRelation with (pattern endswith 1000 or pattern endswith 1001) and routePartitionName is London-PT', london(0, 1)],
    [
      'relation/LineRelation with ((alertingName startswith alice or alertingName startswith bruno) and (routePartitionName is Paris-PT)) or pattern is +44207941019',
      [...paris(0, 1, 2, 3), ...london(19)],
    ],
    ['relation/LineRelation with alertingName is Alice Martin or alertingName is Jack Wilson', [...paris(0, 18), ...london(0, 18)]],
    ['relation/LineRelation with routePartitionName is lyon-pt and (alertingName like desk or alertingName like sales)', lyon(1, 3, 8, 9)],
  ];
  it.each(cases)('%s', (query, expected) => expectPatterns(query, expected));
});

describe('search over other models', () => {
  it('finds device lines (a three-segment model type) and phones', async () => {
    await expectPatterns('device/cucm/Line with alertingName like wilson', [...paris(18, 19), ...london(18, 19)]);
    const phones = await search('device/cucm/Phone with product is "Cisco 8845"');
    expect(values(phones, 'name')).toEqual([
      ...[1, 3, 5, 7, 9].map((i) => `SEP00AA0000000${i}`),
      ...[1, 3, 5, 7, 9].map((i) => `SEP00AA0000100${i}`),
    ]);
  });

  it('orders by the first summary attribute and searches any field of the model', async () => {
    const countries = await search('data/Countries with country_code is 44 or iso_code is de', 'sys');
    expect(values(countries, 'country_name')).toEqual(['Germany', 'United Kingdom']);
    const subscribers = await search('relation/Subscriber with lastname is Dubois');
    expect(values(subscribers, 'userid')).toEqual(['london.chloe', 'paris.chloe']);
    const reserved = await search('data/InternalNumberInventory with status is reserved and internal_number startswith +44');
    expect(values(reserved, 'internal_number')).toEqual(london(...range(90, 99)));
  });

  it('lists a model alone, without with', async () => {
    const countries = await search('data/Countries', 'sys');
    expect(values(countries, 'country_name')).toEqual(['France', 'Germany', 'Spain', 'United Kingdom', 'United States']);
    const lines = await search('relation/LineRelation', LYON);
    expect(values(lines, 'pattern')).toEqual(lyon(1, 2, 3, 4, 5, 6, 7, 8, 9));
  });
});

describe('bare text search', () => {
  it('finds a prefix of any summary attribute of data and device models, ordered by model then first attribute', async () => {
    expect(hits(await search('Acme', 'sys'))).toEqual([
      'data/ConfigurationTemplate Acme Line Defaults',
      'data/FieldDisplayPolicy Acme Line Form',
      'data/HierarchyNode Acme',
      'data/HierarchyNode London',
      'data/HierarchyNode Lyon',
      'data/HierarchyNode Paris',
    ]);
  });

  it('spans models and leaves relations out', async () => {
    const numbers = london(...range(0, 9));
    expect(hits(await search('+4420794100'))).toEqual([
      ...numbers.map((number) => `data/InternalNumberInventory ${number}`),
      ...numbers.map((number) => `device/cucm/Line ${number}`),
    ]);
    // Subscribers are relations: their userids are not searched by a bare text.
    expect(hits(await search('paris.'))).toEqual([]);
  });

  it('takes a quoted or multi-word text whole', async () => {
    expect(values(await search('"Paris desk 1"'), 'name')).toEqual(['SEP00AA00000000', 'SEP00AA00000009']);
    expect(values(await search('Cisco 7841', PARIS), 'name')).toEqual([0, 2, 4, 6, 8].map((i) => `SEP00AA0000000${i}`));
    expect(values(await search('sip', LONDON), 'name')).toEqual(range(0, 9).map((i) => `SEP00AA0000100${i}`));
  });
});

describe('search answers', () => {
  it('have the result shape of decisions.md, with summary data and a readable href', async () => {
    const reply = await search('relation/LineRelation with pattern is +44207941005');
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.body.pagination).toEqual({ skip: 0, limit: 1000, total: 1, maximum_limit: 1000 });
    expect(reply.body.meta).toEqual({ actions: { export: { href: '/api/export/export_data/?url=/api/tool/Search/', method: 'POST' } } });
    const [hit] = reply.body.resources;
    expect(hit.data).toEqual({
      pattern: '+44207941005',
      routePartitionName: 'London-PT',
      alertingName: 'Chloé Dubois (2)',
      summary_device: 'SEP00AA00001002',
      usage: 'Device',
    });
    expect(hit.meta).toEqual({
      model_type: 'relation/LineRelation',
      pkid: expect.stringMatching(/^[0-9a-f]{24}$/),
      hierarchy: LONDON,
      href: `/api/relation/LineRelation/${hit.meta.pkid}/`,
    });
    const read = await t.get(hit.meta.href);
    expect(read.body.data.alertingName).toBe('Chloé Dubois (2)');
  });

  it('leave out summary attributes the instance lacks, and keep booleans and types', async () => {
    const reply = await search("relation/LineRelation with alertingName is 'Sales and Marketing'", LYON);
    expect(reply.body.resources[0].data).toEqual({
      pattern: '+33478000001',
      routePartitionName: 'Lyon-PT',
      alertingName: 'Sales and Marketing',
      usage: 'Device',
    });
  });

  it('are the same bytes on the calling thread (no compiled worker) as from a search worker', async () => {
    const query = 'relation/LineRelation with alertingName like martin or pattern endswith 19';
    const reply = await search(query);
    const admin = t.service.store.instances.findByKey('data/User', JSON.stringify(['admin']))[0];
    const principal = { pkid: admin.pkid, username: 'admin', role: 'admin', hierarchyPkid: admin.hierarchyPkid } as const;
    const bytes = await runSearch(t.service.store, principal, { query, hierarchy: ACME, direction: 'down' });
    expect(Buffer.from(bytes).toString('utf8')).toBe(reply.text);
  });

  it('answer the same to POST, with the query in the body, bare or wrapped in data', async () => {
    const get = await search('relation/LineRelation with alertingName like martin');
    const post = await t.call('POST', `/api/tool/Search/${q(ACME)}`, { query: 'relation/LineRelation with alertingName like martin' });
    expect(post.status).toBe(200);
    expect(post.body).toEqual(get.body);
    const wrapped = await t.call('POST', `/api/tool/Search/${q(ACME)}`, {
      data: { query: 'relation/LineRelation with alertingName like martin' },
    });
    expect(wrapped.body).toEqual(get.body);
  });
});

describe('search errors', () => {
  const fault = async (query: string, status: number, code: string, position: number, fragment: string): Promise<void> => {
    const reply = await search(query);
    expect(reply.status, query).toBe(status);
    expect(reply.body.code, query).toBe(code);
    expect(reply.body.message, query).toContain(`Search query error at position ${position}: `);
    expect(reply.body.message, query).toContain(fragment);
    expect(reply.body.details, query).toEqual([{ field: 'query', message: reply.body.message }]);
  };

  it('answers an unknown model with 404', () => fault('data/Nothing with name is x', 404, 'not-found', 1, 'data/Nothing is not a model'));

  it('answers an unknown field with 400 naming it', async () => {
    const unknown = 'relation/LineRelation with usage is Device and colour is red';
    await fault(unknown, 400, 'unknown-field', unknown.indexOf('colour') + 1, 'colour is not a field of relation/LineRelation');
    const nested = 'relation/LineRelation with callForwardNoAnswer.colour is x';
    await fault(nested, 400, 'unknown-field', 28, 'colour is not a field of relation/LineRelation callForwardNoAnswer');
    await fault('data/User with password is secret', 400, 'unknown-field', 16, 'password is not a field of data/User');
    await fault(
      'relation/LineRelation with pattern.digits is 1',
      400,
      'unknown-field',
      28,
      'pattern of relation/LineRelation has no fields below it',
    );
  });

  it('refuses fields and models a search cannot match', async () => {
    await fault(
      'relation/LineRelation with callForwardNoAnswer is x',
      400,
      'bad-search-query',
      28,
      'callForwardNoAnswer is an object; search one of its fields: callForwardNoAnswer.destination',
    );
    await fault(
      'relation/LineRelation with rejectAnonymousCall like tru',
      400,
      'bad-search-query',
      28,
      "use 'rejectAnonymousCall is true'",
    );
    await fault(
      'relation/LineRelation with rejectAnonymousCall is yes',
      400,
      'bad-search-query',
      28,
      'rejectAnonymousCall is true or false',
    );
    await fault('device/cucm/Phone with lines is x', 400, 'bad-search-query', 24, 'lines is a list');
    await fault('tool/Transaction with status is Success', 400, 'bad-search-query', 1, 'tool/Transaction holds no resources to search');
  });

  it('answers a malformed query with 400 at the position of the error', async () => {
    const missingOperator = 'relation/LineRelation with pattern +44';
    await fault(
      missingOperator,
      400,
      'bad-search-query',
      36,
      "expected an operator (is, like, equals, contains, startswith, endswith) after 'pattern'",
    );
    const unclosed = 'relation/LineRelation with alertingName is "Alice';
    await fault(unclosed, 400, 'bad-search-query', unclosed.indexOf('"') + 1, 'the quote " opened here is never closed');
    const unbalanced = 'relation/LineRelation with (pattern is 1 or usage is x';
    await fault(unbalanced, 400, 'bad-search-query', unbalanced.length + 1, "expected ')' to close the bracket opened at position 28");
    const extraClose = 'relation/LineRelation with pattern is 1) or usage is x';
    await fault(extraClose, 400, 'bad-search-query', extraClose.indexOf(')') + 1, "found ')' but no bracket is open here");
    const trailing = 'relation/LineRelation with pattern is 1 and';
    await fault(trailing, 400, 'bad-search-query', trailing.length + 1, "expected a field name after 'and'");
  });

  it('requires a query, of text, within the length limit', async () => {
    for (const url of ['/api/tool/Search/?hierarchy=sys', '/api/tool/Search/?hierarchy=sys&query=%20%20']) {
      const reply = await t.get(url);
      expect(reply.status, url).toBe(400);
      expect(reply.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'query' }] });
    }
    const long = await search(`relation/LineRelation with pattern is ${'9'.repeat(2000)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('the limit is 2000');
    const number = await t.call('POST', '/api/tool/Search/?hierarchy=sys', { query: 42 });
    expect(number.body).toMatchObject({ code: 'validation-failed', message: 'query must be text, not 42.' });
    const array = await t.call('POST', '/api/tool/Search/?hierarchy=sys', '["Acme"]');
    expect(array.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'query' }] });
    const flag = await t.call('POST', '/api/tool/Search/?hierarchy=sys', { query: 'Acme', hierarchy_all: 'yes' });
    expect(flag.body).toMatchObject({ code: 'validation-failed', details: [{ field: 'hierarchy_all' }] });
  });

  it('allows only GET and POST on the search path itself', async () => {
    const put = await t.call('PUT', '/api/tool/Search/?hierarchy=sys', { query: 'Acme' });
    expect(put.status).toBe(405);
    expect((await t.get('/api/tool/Search/extra/?hierarchy=sys&query=Acme')).status).toBe(404);
    const unknownNode = await search('Acme', 'sys.nowhere');
    expect(unknownNode.body).toMatchObject({ http_code: 404, code: 'hierarchy-not-found' });
  });
});

describe('search and writes', () => {
  it('finds what was written just before, and no longer finds what was deleted (searches run on their own connections)', async () => {
    const query = `/api/tool/Search/${q(PARIS, `&query=${encodeURIComponent('relation/LineRelation with alertingName is "Fresh Write"')}`)}`;
    expect((await t.get(query)).body.pagination.total).toBe(0);
    const made = await t.call('POST', `/api/relation/LineRelation/${q(PARIS)}`, {
      data: { pattern: '+33140001079', alertingName: 'Fresh Write' },
    });
    expect(made.status).toBe(200);
    expect((await t.get(query)).body.resources.map((r: { meta: { pkid: string } }) => r.meta.pkid)).toEqual([made.body.pkid]);
    await t.call('DELETE', made.body.href);
    expect((await t.get(query)).body.pagination.total).toBe(0);
  });
});
