import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instanceSource } from '../../main/service/list/instance-source';
import { parseListParams } from '../../main/service/list/list-params';
import { buildListSql, scopeNodes } from '../../main/service/list/list-sql';
import { NARROW_MAX_ROWS, narrowWins, PlanChoices, scopeProbe, type ProbeCounts } from '../../main/service/list/scope-plan';
import { requireModel } from '../../main/service/models/registry';
import { answerSql } from '../../main/service/search/search-answer';
import { searchSql, type CompiledSearch } from '../../main/service/search/search-compiler';
import { directionScope, type SearchDirection } from '../../main/service/search/search-scope';
import { traversalScope } from '../../main/service/store/nodes-repo';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

/**
 * A single model's search and a list each have two plans (list/scope-plan.ts): walk the
 * summary index and test each row's node, or start from the scope's nodes. Whichever runs, the
 * answer must be the same; the probe must pick the scope's nodes only for a scope that holds
 * few of the model's rows.
 */
let t: TestService;
const KIOSK = `${ACME}.Kiosk`;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const site = await t.call('POST', `/api/data/HierarchyNode/${q(ACME)}`, {
    data: { name: 'Kiosk', node_type: 'Site', description: 'A three-line kiosk' },
  });
  expect(site.status).toBe(200);
  for (const [pattern, alertingName] of [
    ['+33199000003', 'Kiosk Martin'],
    ['+33199000001', 'Kiosk Desk'],
    ['+33199000002', 'Kiosk Smith'],
  ]) {
    const line = await t.call('POST', `/api/relation/LineRelation/${q(KIOSK)}`, {
      data: { pattern, routePartitionName: 'Kiosk-PT', alertingName },
    });
    expect(line.status, alertingName).toBe(200);
  }
});
afterAll(() => t.close());

const QUERIES = [
  'relation/LineRelation',
  'relation/LineRelation with alertingName like martin',
  'relation/LineRelation with pattern startswith +3319',
  'relation/LineRelation with pattern endswith 2 or alertingName contains smith',
  'relation/LineRelation with routePartitionName is kiosk-pt and (alertingName like desk or alertingName like martin)',
  'relation/LineRelation with rejectAnonymousCall is false',
  'relation/LineRelation with alertingName like nobody-has-this',
];
const SCOPES: [SearchDirection, string][] = [
  ['down', ACME],
  ['down', PARIS],
  ['down', KIOSK],
  ['local', LONDON],
  ['up', KIOSK],
  ['all', KIOSK],
];

const run = (search: CompiledSearch): string =>
  Buffer.from(
    (
      t.service.store
        .statement(search.sql)
        .raw(true)
        .get(...search.params) as [Uint8Array]
    )[0],
  ).toString('utf8');
const probe = (search: CompiledSearch): ProbeCounts =>
  t.service.store
    .statement(search.sql)
    .raw(true)
    .get(...search.params) as ProbeCounts;

describe('the two plans of a search', () => {
  it('answer the same bytes for every query and scope', () => {
    let compared = 0;
    for (const query of QUERIES) {
      for (const [direction, path] of SCOPES) {
        const plans = searchSql(query, directionScope(direction, path));
        expect(plans.narrow, query).toBeDefined();
        const label = `${query} ${direction} ${path}`;
        expect(run(answerSql(plans.narrow?.search as CompiledSearch)), label).toBe(run(answerSql(plans)));
        compared += 1;
      }
    }
    expect(compared).toBe(QUERIES.length * SCOPES.length);
    // Not vacuous: the answers have hits, and differ between scopes.
    const kiosk = JSON.parse(run(answerSql(searchSql(QUERIES[0], directionScope('down', KIOSK)))));
    expect(kiosk.resources.map((hit: { data: { pattern: string } }) => hit.data.pattern)).toEqual([
      '+33199000001',
      '+33199000002',
      '+33199000003',
    ]);
  });

  it('are chosen by how many of the model rows the scope holds', () => {
    const counts = (path: string): ProbeCounts =>
      probe((searchSql(QUERIES[1], directionScope('down', path)).narrow as { probe: CompiledSearch }).probe);
    const [inKiosk, total] = counts(KIOSK);
    expect(inKiosk).toBe(3);
    expect(total).toBeGreaterThan(40);
    expect(counts(ACME)).toEqual([total, total]);
    // A three-line site of the customer is read from its node; the whole customer from the index.
    expect(narrowWins(counts(KIOSK))).toBe(true);
    expect(narrowWins(counts(ACME))).toBe(false);
    // The limits: a scope over the cap, or a scope with a quarter of the model's rows or more.
    expect(narrowWins([NARROW_MAX_ROWS + 1, 1_000_000])).toBe(false);
    expect(narrowWins([NARROW_MAX_ROWS, 1_000_000])).toBe(true);
    expect(narrowWins([25, 100])).toBe(false);
    expect(narrowWins([24, 100])).toBe(true);
  });

  it('are chosen once a minute per scope, not on every search', () => {
    const choices = new PlanChoices();
    const probeAt = (path: string): CompiledSearch =>
      (searchSql(QUERIES[1], directionScope('down', path)).narrow as { probe: CompiledSearch }).probe;
    let probes = 0;
    const counting = (search: CompiledSearch): ProbeCounts => {
      probes += 1;
      return probe(search);
    };
    expect(choices.narrow(probeAt(KIOSK), counting, 0)).toBe(true);
    expect(choices.narrow(probeAt(KIOSK), counting, 59_000)).toBe(true);
    expect(probes).toBe(1);
    expect(choices.narrow(probeAt(KIOSK), counting, 61_000)).toBe(true);
    expect(probes).toBe(2);
    // Another scope is probed for itself.
    expect(choices.narrow(probeAt(ACME), counting, 61_000)).toBe(false);
    expect(probes).toBe(3);
  });

  it('answer a search at the small site through the route as the index plan would', async () => {
    const query = QUERIES[1];
    const reply = await t.get(`/api/tool/Search/?format=json&hierarchy=${encodeURIComponent(KIOSK)}&query=${encodeURIComponent(query)}`);
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(run(answerSql(searchSql(query, directionScope('down', KIOSK)))));
    expect(reply.body.pagination.total).toBe(1);
  });
});

describe('the two plans of a list', () => {
  const LISTS = [
    '',
    '&order_by=alertingName&direction=desc',
    '&filter_field=alertingName&filter_condition=contains&filter_text=Kiosk',
    '&filter_field=pattern&filter_condition=startswith&filter_text=%2B3314&skip=5&limit=7',
    '&filter_field=routePartitionName&filter_condition=equals&filter_text=kiosk-pt&ignore_case=true',
  ];
  const TRAVERSALS: [string, string][] = [
    [ACME, 'down'],
    [KIOSK, 'down'],
    [KIOSK, 'local'],
    [PARIS, 'local'],
    [KIOSK, 'up'],
  ];
  const model = requireModel('relation/LineRelation');

  it('read the same page and total for every filter, order, page and traversal', () => {
    let compared = 0;
    for (const extra of LISTS) {
      for (const [path, traversal] of TRAVERSALS) {
        const node = t.service.store.nodes.getByPath(path);
        if (!node) throw new Error(`no node ${path}`);
        const params = parseListParams(model, new URLSearchParams(`traversal=${traversal}${extra}`), undefined);
        const scope = traversalScope(params.traversal, node);
        const [index, nodes] = (['index', 'nodes'] as const).map((drive) =>
          buildListSql(instanceSource(model, true), params, scope, 'i.hierarchy_pkid', drive),
        );
        expect(nodes.page, 'the nodes plan reads from the nodes').toContain('CROSS JOIN');
        const read = (sql: typeof index): unknown => ({
          page: t.service.store.db.prepare(sql.page).all(...sql.pageParams),
          total: t.service.store.db.prepare(sql.count).get(...sql.countParams),
        });
        expect(read(nodes), `${path} ${traversal} ${extra}`).toEqual(read(index));
        compared += 1;
      }
    }
    expect(compared).toBe(LISTS.length * TRAVERSALS.length);
  });

  it('list a small site from its node through the route, with its three lines and their total', async () => {
    const node = t.service.store.nodes.getByPath(KIOSK);
    if (!node) throw new Error('no kiosk');
    expect(
      narrowWins(
        t.service.store.db
          .prepare(scopeProbe(model.modelType, scopeNodes(traversalScope('down', node))).sql)
          .raw(true)
          .get(node.path, `${node.path}.`, `${node.path}/`) as ProbeCounts,
      ),
    ).toBe(true);
    const reply = await t.get(`/api/relation/LineRelation/${q(KIOSK)}`);
    expect(reply.status).toBe(200);
    expect(reply.body.pagination.total).toBe(3);
    expect(reply.body.resources.map((line: { data: { pattern: string } }) => line.data.pattern)).toEqual([
      '+33199000001',
      '+33199000002',
      '+33199000003',
    ]);
  });
});
