// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiFault } from '../../renderer/src/api/fault';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { ResourcesView } from '../../renderer/src/views/ResourcesView';
import { CATALOG, catalogAnswer, titleIn } from './catalog-fixtures';
import { fault, FakeTransport } from './fake-transport';
import { LINES, PARIS, pagedLines } from './resources-fixtures';

afterEach(cleanup);

const LINE_TITLE = titleIn('relation/LineRelation');

/** The view at Paris; the models it offers are the (fake) service's catalog unless the test answers it otherwise. */
function renderAt(
  transport: FakeTransport,
  role: 'admin' | 'operator' | 'readonly' = 'admin',
  catalog: Parameters<FakeTransport['on']>[2] = catalogAnswer(PARIS),
) {
  transport.on('GET', CATALOG, catalog);
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
  const table = await screen.findByTestId('resource-table');
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
    expect(dialog.textContent).toContain(`Delete 1 selected row (${LINE_TITLE}) on Cust?`);
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
    const table = await screen.findByTestId('resource-table');
    await waitFor(() => expect(table.dataset.listState).toBe('error'));
    expect(within(table).getByRole('alert').textContent).toMatch(/Permission Denied.*ask an administrator/);
  });

  it('offers Add in the empty state to a readonly user too, with a note that changes will be refused', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(0));
    const stores = renderAt(transport, 'readonly');
    const table = await screen.findByTestId('resource-table');
    await waitFor(() => expect(table.dataset.listState).toBe('empty'));
    expect(table.textContent).toContain(`No ${LINE_TITLE.toLowerCase()} at Paris`);
    expect(screen.getByTestId('role-note').textContent).toBe('readonly: read and search only — changes will be refused');
    const add = within(table).getByRole('button', { name: `Add ${LINE_TITLE.toLowerCase()}` }) as HTMLButtonElement;
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
  it('offers the models of the service’s catalog for the node, asked once for it', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(3));
    renderAt(transport);
    await readyTable();
    expect(transport.lastQuery(CATALOG).get('hierarchy')).toBe(PARIS);
    const picker = screen.getByLabelText('Model', { selector: 'select' }) as HTMLSelectElement;
    const offered = catalogAnswer(PARIS).body.models;
    expect([...picker.options].map((option) => option.value)).toEqual(offered.map((model) => model.model_type));
    expect(picker.value).toBe('relation/LineRelation');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(`${LINE_TITLE} at Paris`);
    const phone = offered.find((model) => model.model_type === 'device/cucm/Phone');
    expect(within(picker).getByRole('option', { name: `${phone?.title} (device/cucm/Phone)` })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '↻ Refresh' }));
    await readyTable();
    expect(transport.calls.filter((call) => call.url.startsWith(CATALOG))).toHaveLength(1);
  });

  it('says so, with what to do and a retry, when the catalog cannot be read', async () => {
    const transport = new FakeTransport().on('GET', LINES, pagedLines(3));
    renderAt(transport, 'admin', fault(500, 'internal-error', 'The service failed on an internal error; quote reference r-1.'));
    const alert = await screen.findByRole('alert');
    expect(screen.getByText('The models Paris can hold could not be read')).toBeTruthy();
    expect(alert.textContent).toMatch(/internal error.*try again/i);
    expect(transport.calls.some((call) => call.url.startsWith(LINES))).toBe(false);
    transport.on('GET', CATALOG, catalogAnswer(PARIS));
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await readyTable();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(`${LINE_TITLE} at Paris`);
  });
});
