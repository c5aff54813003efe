import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { fileNameOf } from '../../renderer/src/api/downloads';
import { createSearchStore } from '../../renderer/src/store/search-store';
import { fault, FakeTransport } from './fake-transport';
import { hitOf, searchAnswer, SEARCH } from './search-fixtures';

const EXPORT = '/api/export/export_data/?url=/api/tool/Search/';

describe('search store', () => {
  it('sends the query from the caller’s node by default, and the chosen node and direction when set', async () => {
    const transport = new FakeTransport().on('GET', SEARCH, { body: searchAnswer([]) });
    const store = createSearchStore(new ApiClient(transport));
    store.getState().setQuery('relation/LineRelation with pattern startswith +33');
    await store.getState().search();
    let query = transport.lastQuery(SEARCH);
    expect(query.get('query')).toBe('relation/LineRelation with pattern startswith +33');
    expect([...query.keys()]).toEqual(['query']);

    store.getState().setScope({ node: 'd'.repeat(24), direction: 'local' });
    await store.getState().search();
    query = transport.lastQuery(SEARCH);
    expect(query.get('hierarchy')).toBe('d'.repeat(24));
    expect(query.get('hierarchy_shallow')).toBe('true');
    expect(query.has('hierarchy_all')).toBe(false);
    expect(query.has('hierarchy_paths')).toBe(false);

    store.getState().setScope({ direction: 'up' });
    await store.getState().search();
    expect(transport.lastQuery(SEARCH).get('hierarchy_paths')).toBe('true');
    expect(store.getState().state).toBe('empty');
  });

  it('groups the hits by model type in the order they came, and notes the total', async () => {
    const hits = [
      hitOf('data/HierarchyNode', 'n1', { name: 'Paris' }),
      hitOf('relation/LineRelation', 'l1', { pattern: '+331' }),
      hitOf('relation/LineRelation', 'l2', { pattern: '+332' }),
    ];
    const transport = new FakeTransport().on('GET', SEARCH, { body: searchAnswer(hits) });
    const store = createSearchStore(new ApiClient(transport));
    store.getState().setQuery('Par');
    await store.getState().search();
    const groups = store.getState().groups;
    expect(groups.map((group) => [group.modelType, group.hits.length])).toEqual([
      ['data/HierarchyNode', 1],
      ['relation/LineRelation', 2],
    ]);
    expect(store.getState().total).toBe(3);
    expect(store.getState().state).toBe('ready');
  });

  it('keeps a malformed query’s fault with its message and the position it names', async () => {
    const message = "Search query error at position 46: expected a text to search for after 'startswith', found the end of the query.";
    const transport = new FakeTransport().on('GET', SEARCH, {
      status: 400,
      body: { success: false, http_code: 400, code: 'bad-search-query', message, details: [{ field: 'query', message }] },
    });
    const store = createSearchStore(new ApiClient(transport));
    store.getState().setQuery('relation/LineRelation with pattern startswith');
    await store.getState().search();
    const state = store.getState();
    expect(state.state).toBe('error');
    expect(state.fault?.message).toBe(message);
    expect(state.fault?.status).toBe(400);
    expect(state.faultPosition).toBe(46);
    // The detail only repeats the message: it is not shown twice.
    expect(state.fault?.details).toEqual([]);
    expect(state.groups).toEqual([]);
  });

  it('runs a query from the top bar once per hand-over', async () => {
    const transport = new FakeTransport().on('GET', SEARCH, { body: searchAnswer([]) });
    const store = createSearchStore(new ApiClient(transport));
    await store.getState().searchFromNav('Paris');
    await store.getState().searchFromNav('Paris');
    expect(transport.calls.filter((call) => call.url.startsWith(SEARCH))).toHaveLength(1);
    expect(store.getState().query).toBe('Paris');
  });

  it('exports what the results answer, with the file name from Content-Disposition', async () => {
    const transport = new FakeTransport()
      .on('GET', SEARCH, { body: searchAnswer([hitOf('relation/LineRelation', 'l1', { pattern: '+331' })]) })
      .on('POST', EXPORT, {
        body: { query: 'Par', total: 1 },
        headers: { 'content-disposition': 'attachment; filename="tool_Search_exported_json_20261121.json"' },
      });
    const store = createSearchStore(new ApiClient(transport));
    store.getState().setQuery('Par');
    store.getState().setScope({ node: 'e'.repeat(24), direction: 'all' });
    await store.getState().search();
    store.getState().setQuery('changed after the search');
    const file = await store.getState().exportResults('json');
    const call = transport.calls.at(-1);
    expect(call?.method).toBe('POST');
    expect(call?.url).toBe(`${EXPORT}&hierarchy=${'e'.repeat(24)}&hierarchy_all=true`);
    expect(call?.body).toEqual({ query: 'Par', export_data_type: 'json' });
    expect(file?.fileName).toBe('tool_Search_exported_json_20261121.json');
    expect(JSON.parse(new TextDecoder().decode(file?.bytes))).toEqual({ query: 'Par', total: 1 });
  });

  it('keeps an export fault, and no file', async () => {
    const transport = new FakeTransport()
      .on('GET', SEARCH, { body: searchAnswer([]) })
      .on('POST', EXPORT, fault(403, 'permission-denied', 'Permission Denied: readonly users cannot export.'));
    const store = createSearchStore(new ApiClient(transport));
    store.getState().setQuery('Par');
    await store.getState().search();
    expect(await store.getState().exportResults('formatted')).toBeUndefined();
    expect(store.getState().exportFault?.message).toMatch(/^Permission Denied/);
    expect(store.getState().exporting).toBe(false);
  });

  it('reads a file name from the usual Content-Disposition forms', () => {
    expect(fileNameOf('attachment; filename="a b.xlsx"', 'x')).toBe('a b.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''caf%C3%A9.json", 'x')).toBe('café.json');
    expect(fileNameOf(undefined, 'fallback.xlsx')).toBe('fallback.xlsx');
  });
});
