import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../renderer/src/api/api-client';
import { createHierarchyStore, visibleRows } from '../../renderer/src/store/hierarchy-store';
import { fault, FakeTransport, listOf, nodeInstance } from './fake-transport';

const ROOT = 'a'.repeat(24);

function world(childCount: number): FakeTransport {
  const children = Array.from({ length: childCount }, (_, i) =>
    nodeInstance(`c${String(i).padStart(23, '0')}`, `Site-${String(i).padStart(5, '0')}`, 'sys.Acme'),
  );
  return new FakeTransport()
    .on('GET', `/api/data/HierarchyNode/${ROOT}/`, {
      body: {
        ...nodeInstance(ROOT, 'Acme', 'sys', 'Customer'),
        meta: { ...nodeInstance(ROOT, 'Acme', 'sys').meta, path: { dot: 'sys.Acme', pkid: ROOT, nodes: [] } },
      },
    })
    .on('GET', '/api/data/HierarchyNode/', (call) => {
      const query = new URLSearchParams(call.url.split('?')[1]);
      const skip = Number(query.get('skip') ?? 0);
      return { body: listOf(children.slice(skip, skip + 2000), children.length, skip) };
    });
}

describe('hierarchy store', () => {
  it('opens the user node and shows its children in name order, paging a big node in', async () => {
    const transport = world(4500);
    const store = createHierarchyStore(new ApiClient(transport));
    await store.getState().loadRoot(ROOT);
    const state = store.getState();
    expect(state.nodes[ROOT]?.path).toBe('sys.Acme');
    expect(state.nodes[ROOT]?.childTotal).toBe(4500);
    const rows = visibleRows(state);
    expect(rows).toHaveLength(4501);
    expect(state.nodes[rows[1].pkid]?.name).toBe('Site-00000');
    expect(state.nodes[rows[4500].pkid]?.name).toBe('Site-04499');
    const skips = transport.calls
      .filter((c) => c.url.startsWith('/api/data/HierarchyNode/?'))
      .map((c) => new URLSearchParams(c.url.split('?')[1]).get('skip'));
    expect(skips).toEqual(['0', '2000', '4000']);
  });

  it('collapses and reopens without asking the service again', async () => {
    const transport = world(3);
    const store = createHierarchyStore(new ApiClient(transport));
    await store.getState().loadRoot(ROOT);
    store.getState().collapse(ROOT);
    expect(visibleRows(store.getState())).toHaveLength(1);
    const before = transport.calls.length;
    await store.getState().expand(ROOT);
    expect(visibleRows(store.getState())).toHaveLength(4);
    expect(transport.calls.length).toBe(before);
  });

  it('keeps a refused root as a fault the panel can show', async () => {
    const transport = new FakeTransport().on(
      'GET',
      `/api/data/HierarchyNode/${ROOT}/`,
      fault(403, 'permission-denied', 'Permission Denied: not your node'),
    );
    const store = createHierarchyStore(new ApiClient(transport));
    await store.getState().loadRoot(ROOT);
    expect(store.getState().rootFault?.message).toMatch(/^Permission Denied/);
    expect(store.getState().rootFault?.advice).toMatch(/administrator/);
  });
});
