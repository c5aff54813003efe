import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSql } from '../../main/service/search/search-answer';
import { searchSql, type CompiledSearch } from '../../main/service/search/search-compiler';
import { NARROW_MAX_ROWS, narrowWins, PlanChoices, type ProbeCounts } from '../../main/service/search/search-plan-choice';
import { directionScope, type SearchDirection } from '../../main/service/search/search-scope';
import { ACME, LONDON, openTestService, PARIS, q, type TestService } from './helpers';

/**
 * A single model's search has two plans (search-plan-choice.ts): walk the summary index and test
 * each row's node, or start from the scope's nodes. Whichever runs, the answer must be the same
 * bytes; the probe must pick the scope's nodes only for a scope that holds few of the model's rows.
 */
let t: TestService;
const KIOSK = `${ACME}.Kiosk`;

beforeAll(async () => {
  t = await openTestService({ demo: true });
  const site = await t.call('POST', `/api/data/HierarchyNode/${q(ACME)}`, { data: { name: 'Kiosk', node_type: 'Site', description: 'A three-line kiosk' } });
  expect(site.status).toBe(200);
  for (const [pattern, alertingName] of [['+33199000003', 'Kiosk Martin'], ['+33199000001', 'Kiosk Desk'], ['+33199000002', 'Kiosk Smith']]) {
    const line = await t.call('POST', `/api/relation/LineRelation/${q(KIOSK)}`, { data: { pattern, routePartitionName: 'Kiosk-PT', alertingName } });
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
  Buffer.from((t.service.store.statement(search.sql).raw(true).get(...search.params) as [Uint8Array])[0]).toString('utf8');
const probe = (search: CompiledSearch): ProbeCounts => t.service.store.statement(search.sql).raw(true).get(...search.params) as ProbeCounts;

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
    expect(kiosk.resources.map((hit: { data: { pattern: string } }) => hit.data.pattern)).toEqual(['+33199000001', '+33199000002', '+33199000003']);
  });

  it('are chosen by how many of the model rows the scope holds', () => {
    const counts = (path: string): ProbeCounts => probe((searchSql(QUERIES[1], directionScope('down', path)).narrow as { probe: CompiledSearch }).probe);
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
    const plans = searchSql(QUERIES[1], directionScope('down', KIOSK));
    const narrow = plans.narrow as { search: CompiledSearch; probe: CompiledSearch };
    const statements = { answer: plans as CompiledSearch, narrow: { answer: narrow.search, probe: narrow.probe } };
    let probes = 0;
    const counting = (search: CompiledSearch): ProbeCounts => {
      probes += 1;
      return probe(search);
    };
    expect(choices.pick(statements, counting, 0)).toBe(narrow.search);
    expect(choices.pick(statements, counting, 59_000)).toBe(narrow.search);
    expect(probes).toBe(1);
    expect(choices.pick(statements, counting, 61_000)).toBe(narrow.search);
    expect(probes).toBe(2);
    // Another scope is probed for itself.
    const wide = searchSql(QUERIES[1], directionScope('down', ACME));
    const wideNarrow = wide.narrow as { search: CompiledSearch; probe: CompiledSearch };
    expect(choices.pick({ answer: wide, narrow: { answer: wideNarrow.search, probe: wideNarrow.probe } }, counting, 61_000)).toBe(wide);
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
