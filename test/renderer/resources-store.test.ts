import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createResourcesStore, listParams } from '../../renderer/src/store/resources-store';
import { fault, FakeTransport } from './fake-transport';
import { LINES, PARIS, pagedLines } from './resources-fixtures';

function setup(total = 1240) {
  const transport = new FakeTransport().on('GET', LINES, pagedLines(total));
  const store = createResourcesStore(new ApiClient(transport));
  return { transport, store };
}

describe('resources store', () => {
  it('lists the node down the tree on page one, then pages, sorts and filters on the service', async () => {
    const { transport, store } = setup();
    await store.getState().show('relation/LineRelation', PARIS);
    let query = transport.lastQuery(LINES);
    expect(Object.fromEntries(query)).toEqual({ hierarchy: PARIS, traversal: 'down', skip: '0', limit: '50' });
    expect(store.getState().listState).toBe('ready');

    await store.getState().goToPage(3);
    expect(transport.lastQuery(LINES).get('skip')).toBe('100');
    await store.getState().goToPage(999);
    expect(transport.lastQuery(LINES).get('skip')).toBe('1200');

    // The service sorted by pattern ascending: a click on it asks for descending, from page one.
    await store.getState().sortBy('pattern');
    query = transport.lastQuery(LINES);
    expect([query.get('order_by'), query.get('direction'), query.get('skip')]).toEqual(['pattern', 'desc', '0']);
    await store.getState().sortBy('alertingName');
    expect([transport.lastQuery(LINES).get('order_by'), transport.lastQuery(LINES).get('direction')]).toEqual(['alertingName', 'asc']);

    await store.getState().setPageSize(250);
    await store.getState().setTraversal('local');
    query = transport.lastQuery(LINES);
    expect([query.get('limit'), query.get('traversal')]).toEqual(['250', 'local']);
  });

  it('sends each filter set as repeated keys in order and leaves out rows without text', () => {
    const params = listParams({
      modelType: 'relation/LineRelation',
      hierarchy: PARIS,
      traversal: 'down',
      skip: 0,
      limit: 50,
      direction: 'asc',
      filters: [
        { field: 'pattern', condition: 'startswith', text: ' +331 ' },
        { field: 'alertingName', condition: 'contains', text: '' },
        { field: 'alertingName', condition: 'endswith', text: 'Martin' },
      ],
    });
    expect(params.getAll('filter_field')).toEqual(['pattern', 'alertingName']);
    expect(params.getAll('filter_condition')).toEqual(['startswith', 'endswith']);
    expect(params.getAll('filter_text')).toEqual(['+331', 'Martin']);
  });

  it('checks rows one by one, by shift-click range and by page', async () => {
    const { store } = setup(120);
    await store.getState().show('relation/LineRelation', PARIS);
    store.getState().toggle(2, false);
    store.getState().toggle(6, true);
    const hrefs = store.getState().answer?.resources.map((r) => r.meta.href) ?? [];
    expect([...store.getState().selection.hrefs]).toEqual(hrefs.slice(2, 7));
    store.getState().toggle(4, false);
    expect(store.getState().selection.hrefs.has(hrefs[4])).toBe(false);
    store.getState().selectPage(true);
    expect(store.getState().selection.hrefs.size).toBe(50);
    store.getState().selectPage(false);
    expect(store.getState().selection.hrefs.size).toBe(0);
  });

  it('deletes the checked rows in one call, follows the transaction and reads the list again', async () => {
    const { transport, store } = setup(120);
    transport.on('DELETE', LINES, { status: 202, body: { href: '/api/tool/Transaction/t-1/', success: true, transaction_id: 't-1' } });
    await store.getState().show('relation/LineRelation', PARIS);
    store.getState().toggle(0, false);
    store.getState().toggle(1, true);
    const tracked: string[] = [];
    const listCalls = (): number => transport.calls.filter((c) => c.method === 'GET').length;
    const before = listCalls();
    await store.getState().deleteSelected(async (id) => {
      tracked.push(id);
      return 'Success';
    });
    const call = transport.calls.find((c) => c.method === 'DELETE');
    expect(call?.body).toEqual({ hrefs: [`${LINES}${'l'.padEnd(24, '0')}/`, `${LINES}l${'1'.padStart(23, '0')}/`] });
    expect(new URLSearchParams(call?.url.split('?')[1]).get('nowait')).toBe('true');
    expect(tracked).toEqual(['t-1']);
    expect(listCalls()).toBe(before + 1);
    expect(store.getState().selection.hrefs.size).toBe(0);
  });

  it('tags each checked row and reports the service warnings and refusals', async () => {
    const { transport, store } = setup(10);
    const first = `${LINES}${'l'.padEnd(24, '0')}/`;
    transport.on('PATCH', `${first}+tag/`, { body: { success: true, tags: ['Gold'], warnings: ["Tag 'Gold' has capital letters"] } });
    await store.getState().show('relation/LineRelation', PARIS);
    store.getState().toggle(0, false);
    store.getState().toggle(1, true);
    const outcome = await store.getState().tagSelected('Gold');
    const patches = transport.calls.filter((c) => c.method === 'PATCH');
    expect(patches.map((c) => c.url)).toEqual([`${first}+tag/?tag=Gold`, `${LINES}l${'1'.padStart(23, '0')}/+tag/?tag=Gold`]);
    expect(outcome.tagged).toBe(1);
    expect(outcome.warnings).toEqual(["Tag 'Gold' has capital letters"]);
    expect(outcome.faults).toHaveLength(1);
    expect(store.getState().actionFault?.status).toBe(404);
  });

  it('turns a refused list into an error state with the service message', async () => {
    const transport = new FakeTransport().on(
      'GET',
      LINES,
      fault(403, 'permission-denied', 'Permission Denied: sys.Other is outside your hierarchy.'),
    );
    const store = createResourcesStore(new ApiClient(transport));
    await store.getState().show('relation/LineRelation', PARIS);
    expect(store.getState().listState).toBe('error');
    expect(store.getState().fault?.message).toMatch(/^Permission Denied/);
  });

  it('reads field titles from the add/ form once per model, for column headings', async () => {
    const { transport, store } = setup(3);
    transport.on('GET', `${LINES}add/`, {
      body: {
        schema: {
          properties: {
            pattern: { title: 'Extension' },
            callForwardAll: { title: 'CFA', properties: { destination: { title: 'CFA destination' } } },
          },
        },
      },
    });
    await store.getState().show('relation/LineRelation', PARIS);
    await store.getState().show('relation/LineRelation', PARIS);
    await Promise.resolve();
    expect(store.getState().formTitles['relation/LineRelation']).toEqual({
      pattern: 'Extension',
      callForwardAll: 'CFA',
      'callForwardAll.destination': 'CFA destination',
    });
    expect(transport.calls.filter((c) => c.url.startsWith(`${LINES}add/`))).toHaveLength(1);
  });
});
