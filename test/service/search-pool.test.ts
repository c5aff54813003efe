import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaceFile } from '../../main/service';
import { answerSql } from '../../main/service/search/search-answer';
import { searchSql } from '../../main/service/search/search-compiler';
import { SearchPool, type SearchStatements } from '../../main/service/search/search-pool';
import { directionScope } from '../../main/service/search/search-scope';
import { ACME, LONDON, openTestService, PARIS, type TestService } from './helpers';

/**
 * The search workers under many searches at once: every search gets its own answer, the same
 * bytes the calling thread writes, whatever the order the workers finish in; a search that
 * fails fails alone; a closed pool refuses what waits. Real worker threads on the demo store.
 */
let t: TestService;
let pool: SearchPool;

const QUERIES: [string, string][] = [
  ['relation/LineRelation with alertingName like martin', ACME],
  ['relation/LineRelation with pattern startswith +3314', ACME],
  ['relation/LineRelation with pattern startswith +3314000101', PARIS],
  ['relation/LineRelation with alertingName like e', ACME],
  ['relation/LineRelation with pattern startswith +4420794100', LONDON],
  ['relation/LineRelation with pattern endswith 9 or alertingName like smith', ACME],
];

/** A search's statements as the route hands them over: both plans, chosen by the worker's probe. */
function statementsOf(query: string, path: string): SearchStatements {
  const plans = searchSql(query, directionScope('down', path));
  return { answer: answerSql(plans), narrow: plans.narrow && { answer: answerSql(plans.narrow.search), probe: plans.narrow.probe } };
}
/** The answer written on this thread, by the plan that walks the summary index (never the narrow one). */
const onCallingThread = ({ answer }: SearchStatements): string =>
  Buffer.from(
    (
      t.service.store
        .statement(answer.sql)
        .raw(true)
        .get(...answer.params) as [Uint8Array]
    )[0],
  ).toString('utf8');
const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

beforeAll(async () => {
  t = await openTestService({ demo: true });
  pool = new SearchPool(workspaceFile(t.dataDir));
});
afterAll(() => {
  pool.close();
  t.close();
});

describe('the search pool', () => {
  it('runs in worker threads here (the compiled worker exists)', () => {
    // npm test builds first; without a build every other test here would pass on the calling thread.
    expect(pool.available).toBe(true);
  });

  it('answers 36 searches sent at once, each with its own answer', async () => {
    const searches = Array.from({ length: 36 }, (_, index) => QUERIES[index % QUERIES.length]);
    const answers = await Promise.all(searches.map(([query, path]) => pool.run(statementsOf(query, path))));
    const expected = searches.map(([query, path]) => onCallingThread(statementsOf(query, path)));
    expect(answers.map(text)).toEqual(expected);
    // Not the same answer everywhere: the queries differ in their hits.
    expect(new Set(expected).size).toBe(QUERIES.length);
    for (const answer of expected) expect(JSON.parse(answer).pagination.total).toBeGreaterThan(0);
  });

  it('fails a search whose statement fails, and answers the searches queued behind it', async () => {
    const good = statementsOf(QUERIES[0][0], QUERIES[0][1]);
    const broken: SearchStatements = { answer: { sql: 'SELECT no_such_column FROM instances', params: [] } };
    const results = await Promise.allSettled([pool.run(good), pool.run(broken), pool.run(good), pool.run(good), pool.run(good)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('no_such_column');
    for (const result of results.filter((each) => each.status === 'fulfilled')) expect(text(result.value)).toBe(onCallingThread(good));
  });

  it('refuses the searches still waiting when closed, and any search after', async () => {
    const own = new SearchPool(workspaceFile(t.dataDir));
    const search = statementsOf(QUERIES[0][0], QUERIES[0][1]);
    const pending = Array.from({ length: 8 }, () => own.run(search));
    own.close();
    const results = await Promise.allSettled(pending);
    // The ones a worker already held may finish or fail with it; the queued ones are refused.
    expect(results.filter((result) => result.status === 'rejected').length).toBeGreaterThanOrEqual(4);
    await expect(own.run(search)).rejects.toThrow('search pool closed');
  });
});
