// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TreePanel } from '../../renderer/src/components/TreePanel';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { FakeTransport, listOf, nodeInstance } from './fake-transport';

const ROOT = 'b'.repeat(24);
afterEach(cleanup);

function transportWithSites(): FakeTransport {
  const sites = ['Lyon', 'Paris', 'Nice'].map((name, i) => nodeInstance(`s${i}`.padEnd(24, '0'), name, 'sys.Acme'));
  return new FakeTransport()
    .on('GET', `/api/data/HierarchyNode/${ROOT}/`, { body: nodeInstance(ROOT, 'Acme', 'sys', 'Customer') })
    .on('GET', '/api/data/HierarchyNode/', { body: listOf(sites) });
}

describe('tree panel', () => {
  it('walks the tree with the keyboard and selects a site with Enter', async () => {
    const stores = createStores(transportWithSites());
    await act(() => stores.hierarchy.getState().loadRoot(ROOT));
    render(
      <StoresContext.Provider value={stores}>
        <TreePanel />
      </StoresContext.Provider>,
    );
    const tree = screen.getByRole('tree');
    const items = screen.getAllByRole('treeitem');
    expect(items.map((item) => item.textContent)).toEqual(['▾AcmeCustomer (3)', '▸LyonSite', '▸ParisSite', '▸NiceSite']);
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    expect(tree.getAttribute('aria-activedescendant')).toBe(`tree-${'s1'.padEnd(24, '0')}`);
    fireEvent.keyDown(tree, { key: 'Enter' });
    expect(stores.hierarchy.getState().selected).toBe('s1'.padEnd(24, '0'));
    expect(screen.getByText('Paris').closest('[role=treeitem]')?.getAttribute('aria-selected')).toBe('true');
  });
});
