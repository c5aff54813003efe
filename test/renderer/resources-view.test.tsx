// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiFault } from '../../renderer/src/api/fault';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { ResourcesView } from '../../renderer/src/views/ResourcesView';
import { fault, FakeTransport } from './fake-transport';
import { LINES, PARIS, pagedLines } from './resources-fixtures';

afterEach(cleanup);

function renderAt(transport: FakeTransport, role: 'admin' | 'operator' | 'readonly' = 'admin') {
  const stores = createStores(transport);
  stores.session.setState({
    state: 'signed-in',
    user: { username: 'u', role, hierarchy: 'sys', hierarchy_pkid: 'r'.repeat(24), workspace: 'Local', release: '20.1.1' },
  });
  stores.hierarchy.setState({
    nodes: { [PARIS]: { pkid: PARIS, name: 'Paris', path: 'sys.Acme.Paris', nodeType: 'Site', childState: 'loaded' } },
    rootPkid: PARIS,
    selected: PARIS,
  });
  render(
    <StoresContext.Provider value={stores}>
      <ResourcesView />
    </StoresContext.Provider>,
  );
  return stores;
}

async function readyTable(): Promise<HTMLElement> {
  const table = screen.getByTestId('resource-table');
  await waitFor(() => expect(table.dataset.listState).toBe('ready'));
  return table;
}

describe('resources view', () => {
  it('says there is no hierarchy to show, not a spinner forever, when the tree root could not be read', () => {
    const stores = createStores(new FakeTransport());
    stores.hierarchy.setState({
      nodes: {},
      rootPkid: undefined,
      selected: undefined,
      rootFault: new ApiFault(502, 'remote-home-unknown', 'enter the home hierarchy'),
    });
    render(
      <StoresContext.Provider value={stores}>
        <ResourcesView />
      </StoresContext.Provider>,
    );
    expect(screen.getByText('No hierarchy to show')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows a page of 250 out of 1,000,000 lines with only the rows in view rendered, and pages to the last', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(1_000_000));
    renderAt(transport);
    await readyTable();
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '250' } });
    await readyTable();
    const rows = screen.getAllByRole('row').filter((row) => row.dataset.pkid);
    expect(rows[0].textContent).toContain('+33140000000');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByTestId('page-indicator').textContent).toContain('Page 1 of 4,000');
    fireEvent.click(screen.getByLabelText('Last page'));
    await readyTable();
    expect(transport.lastQuery(LINES).get('skip')).toBe('999750');
    expect(screen.getByTestId('page-range').textContent).toBe('999,751–1,000,000 of 1,000,000');
  });

  it('asks the service for the order of a clicked header and marks it with aria-sort', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(120));
    renderAt(transport);
    await readyTable();
    const header = screen.getByRole('columnheader', { name: /Alerting Name/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button'));
    await readyTable();
    expect(transport.lastQuery(LINES).get('order_by')).toBe('alertingName');
    expect(transport.lastQuery(LINES).get('direction')).toBe('asc');
    expect(screen.getByRole('columnheader', { name: /Alerting Name/ }).getAttribute('aria-sort')).toBe('ascending');
  });

  it('checks rows, shift-clicks a range, and deletes them after a confirmation', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(120));
    transport.on('DELETE', LINES, { status: 202, body: { href: '/api/tool/Transaction/t-1/', success: true, transaction_id: 't-1' } });
    transport.on('GET', '/api/tool/Transaction/t-1/poll/', { body: { 't-1': { status: 'Success', href: '/api/tool/Transaction/t-1/' } } });
    renderAt(transport);
    await readyTable();
    fireEvent.click(screen.getByLabelText('Select row 2'));
    fireEvent.click(screen.getByLabelText('Select row 5'), { shiftKey: true });
    expect(screen.getByText('4 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    expect(transport.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete 4' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'DELETE')).toBe(true));
    const body = transport.calls.find((c) => c.method === 'DELETE')?.body as { hrefs: string[] };
    expect(body.hrefs).toHaveLength(4);
    await waitFor(() => expect(screen.getByText('No rows selected')).toBeTruthy());
  });

  it('in a live workspace, names the deployment in its delete dialog and asks nothing more', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(20));
    transport.on('DELETE', LINES, { status: 202, body: { href: '/api/tool/Transaction/t-2/', success: true, transaction_id: 't-2' } });
    transport.on('GET', '/api/tool/Transaction/t-2/poll/', { body: { 't-2': { status: 'Success', href: '/api/tool/Transaction/t-2/' } } });
    const stores = renderAt(transport);
    const cust = { name: 'Cust', live: true, base_url: 'https://voss.cust.example', profile_id: 'p1', home_hierarchy: null };
    stores.workspace.setState({
      workspaces: [{ name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null }, cust],
      current: 'Cust',
    });
    stores.client.setWorkspace({ name: 'Cust', baseUrl: cust.base_url });
    await readyTable();
    fireEvent.click(screen.getByLabelText('Select row 1'));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirm delete' });
    expect(dialog.textContent).toContain('Delete 1 selected row (Lines) on Cust?');
    expect(within(dialog).getByTestId('live-target').textContent).toContain('Cust (https://voss.cust.example)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete 1' }));
    await waitFor(() => expect(transport.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(stores.confirm.getState().question).toBeUndefined();
  });

  it('shows a Permission Denied list as a fault with what to do', async () => {
    const transport = new FakeTransport().on(
      'GET',
      LINES,
      fault(403, 'permission-denied', 'Permission Denied: sys.Acme.Paris is outside your hierarchy.'),
    );
    renderAt(transport);
    const table = screen.getByTestId('resource-table');
    await waitFor(() => expect(table.dataset.listState).toBe('error'));
    expect(within(table).getByRole('alert').textContent).toMatch(/Permission Denied.*ask an administrator/);
  });

  it('offers Add in the empty state to a readonly user too, with a note that changes will be refused', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(0));
    const stores = renderAt(transport, 'readonly');
    const table = screen.getByTestId('resource-table');
    await waitFor(() => expect(table.dataset.listState).toBe('empty'));
    expect(table.textContent).toContain('No lines at Paris');
    expect(screen.getByTestId('role-note').textContent).toBe('readonly: read and search only — changes will be refused');
    const add = within(table).getByRole('button', { name: 'Add lines' }) as HTMLButtonElement;
    expect(add.disabled).toBe(false);
    expect(add.title).toMatch(/readonly.*Permission Denied/);
    fireEvent.click(add);
    expect(stores.nav.getState().place).toEqual({ view: 'form', modelType: 'relation/LineRelation' });
  });

  it('shows no role note to an admin', async () => {
    renderAt(new FakeTransport().on('GET', LINES, pagedLines(3)));
    await readyTable();
    expect(screen.queryByTestId('role-note')).toBeNull();
  });

  it('lets an operator try a delete, shows the Permission Denied and keeps the list as it was', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(3));
    transport.on(
      'DELETE',
      LINES,
      fault(403, 'permission-denied', 'Permission Denied: paris.operator (operator) may not delete relation/LineRelation.'),
    );
    renderAt(transport, 'operator');
    await readyTable();
    expect(screen.getByTestId('role-note').textContent).toMatch(/^operator: read, search and export only/);
    fireEvent.click(screen.getByLabelText('Select row 2'));
    const remove = screen.getByRole('button', { name: 'Delete selected' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(false);
    expect(remove.title).toMatch(/operator/);
    fireEvent.click(remove);
    fireEvent.click(screen.getByRole('button', { name: 'Delete 1' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Permission Denied: paris\.operator.*ask an administrator/);
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByTestId('resource-table').dataset.listState).toBe('ready');
    expect(screen.getAllByRole('row').filter((row) => row.dataset.pkid)).toHaveLength(3);
  });

  it('opens a row in the instance view', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(5));
    const stores = renderAt(transport);
    await readyTable();
    fireEvent.click(screen.getByText('User 3'));
    expect(stores.nav.getState().place).toEqual({
      view: 'instance',
      modelType: 'relation/LineRelation',
      href: `${LINES}l${'3'.padStart(23, '0')}/`,
    });
  });
});
