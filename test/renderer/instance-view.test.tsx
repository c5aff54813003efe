// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { LiveConfirmDialog } from '../../renderer/src/components/LiveConfirmDialog';
import { InstanceView } from '../../renderer/src/views/InstanceView';
import { fault } from './fake-transport';
import { ExportingTransport, LINE, lineRelation } from './instance-fixtures';

afterEach(cleanup);
const CUST = { name: 'Cust', live: true, base_url: 'https://voss.cust.example', profile_id: 'p1', home_hierarchy: null };

function renderInstance(transport: ExportingTransport, role: 'admin' | 'operator' | 'readonly' = 'admin', live = false) {
  const stores = createStores(transport);
  if (live) {
    // As the workspace switcher leaves things: the client pointed at the remote, the store naming it.
    stores.workspace.setState({
      workspaces: [{ name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null }, CUST],
      current: 'Cust',
    });
    stores.client.setWorkspace({ name: 'Cust', baseUrl: CUST.base_url });
  }
  stores.session.setState({
    state: 'signed-in',
    user: { username: 'u', role, hierarchy: 'sys', hierarchy_pkid: 'r'.repeat(24), workspace: 'Local', release: '20.1.1' },
  });
  stores.nav.setState({ place: { view: 'instance', modelType: 'relation/LineRelation', href: LINE } });
  render(
    <StoresContext.Provider value={stores}>
      <InstanceView />
      <LiveConfirmDialog />
    </StoresContext.Provider>,
  );
  return stores;
}

describe('instance view', () => {
  it('shows references by the names of what they point to, the pkid only where there is no name (issue 32, point 9)', async () => {
    const node = `/api/data/HierarchyNode/${'n'.repeat(24)}/`;
    const transport = new ExportingTransport()
      .on('GET', LINE, { body: lineRelation() })
      .on('GET', node, { body: { data: { name: 'Paris', node_type: 'Site' }, meta: {} } })
      .on('GET', `/api/device/cucm/Line/${'d'.repeat(24)}/`, { body: { data: { usage: 'Device' }, meta: {} } });
    renderInstance(transport);
    const meta = await screen.findByTestId('instance-meta');
    const parent = await within(meta).findByRole('button', { name: 'Paris' });
    expect(parent.getAttribute('data-href')).toBe(node);
    expect(parent.closest('li')?.textContent).toBe('Paris data/HierarchyNode');
    // A device line without a name of its own keeps its model and pkid.
    expect(within(meta).getByRole('button', { name: 'device/cucm/Line' }).closest('li')?.textContent).toContain('d'.repeat(24));
  });

  it('shows data with nested call-forward settings, meta, tags and references', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    const stores = renderInstance(transport);
    const view = screen.getByTestId('instance-view');
    await waitFor(() => expect(view.dataset.loadState).toBe('ready'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('+33140001000');
    expect(within(view).getByText('callForwardNoAnswer').closest('.inst-field')?.textContent).toContain('Paris-CSS');
    const meta = screen.getByTestId('instance-meta');
    expect(meta.textContent).toContain('sys.hcs.Telco.Acme.Paris');
    expect((within(meta).getByLabelText('Version tag') as HTMLInputElement).value).toBe('1.2');
    expect(
      within(screen.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['vip×', 'migrated×']);
    fireEvent.click(within(meta).getByRole('button', { name: 'device/cucm/Line' }));
    expect(stores.nav.getState().place).toEqual({
      view: 'instance',
      modelType: 'device/cucm/Line',
      href: `/api/device/cucm/Line/${'d'.repeat(24)}/`,
    });
  });

  it('clears a tag with its × and shows the chips the service then holds', async () => {
    let tags = ['vip', 'migrated'];
    const transport = new ExportingTransport().on('GET', LINE, () => ({ body: lineRelation(tags) }));
    transport.on('PATCH', `${LINE}+tag/`, () => {
      tags = ['migrated'];
      return { body: { success: true, tags } };
    });
    renderInstance(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove tag vip' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Remove tag vip' })).toBeNull());
    const patch = transport.calls.find((c) => c.method === 'PATCH');
    expect(decodeURIComponent(patch?.url ?? '')).toBe(`${LINE}+tag/?tag=__CLEAR_TAG__vip`);
  });

  it('shows the service warning about a tag with capitals', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation([]) });
    transport.on('PATCH', `${LINE}+tag/`, {
      body: {
        success: true,
        tags: ['Gold'],
        warnings: ["Tag 'Gold' has capital letters: it is stored, but search will not find it; use lower case."],
      },
    });
    renderInstance(transport);
    fireEvent.change(await screen.findByLabelText('New tag'), { target: { value: 'Gold' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/capital letters/);
  });

  it('deletes after a confirmation and goes to the transaction', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    transport.on('DELETE', LINE, { status: 202, body: { href: '/api/tool/Transaction/t-5/', success: true, transaction_id: 't-5' } });
    transport.on('GET', '/api/tool/Transaction/t-5/poll/', { body: { 't-5': { status: 'Success', href: '/api/tool/Transaction/t-5/' } } });
    const stores = renderInstance(transport);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(transport.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: 't-5' }));
    expect(transport.calls.find((c) => c.method === 'DELETE')?.url).toBe(`${LINE}?nowait=true`);
  });

  it('in a live workspace, asks once, in its own delete dialog naming the deployment and its address', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    transport.on('DELETE', LINE, { status: 202, body: { href: '/api/tool/Transaction/t-6/', success: true, transaction_id: 't-6' } });
    transport.on('GET', '/api/tool/Transaction/t-6/poll/', { body: { 't-6': { status: 'Success', href: '/api/tool/Transaction/t-6/' } } });
    const stores = renderInstance(transport, 'admin', true);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirm delete' });
    expect(dialog.textContent).toMatch(/on Cust\?/);
    expect(within(dialog).getByTestId('live-target').textContent).toBe(
      'This changes the live deployment Cust (https://voss.cust.example), not the local store.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: 't-6' }));
    // No second question: neither the app's live dialog nor the browser's.
    expect(stores.confirm.getState().question).toBeUndefined();
    expect(screen.queryByRole('alertdialog', { name: 'Confirm a live change' })).toBeNull();
    expect(transport.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it("in a live workspace, asks in the app's own dialog before a tag change; cancelled, nothing is sent", async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation([]) });
    transport.on('PATCH', `${LINE}+tag/`, { body: { success: true, tags: ['gold'] } });
    renderInstance(transport, 'admin', true);
    const addTag = async (): Promise<HTMLElement> => {
      fireEvent.change(await screen.findByLabelText('New tag'), { target: { value: 'gold' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
      return screen.findByRole('alertdialog', { name: 'Confirm a live change' });
    };
    let dialog = await addTag();
    expect(dialog.textContent).toContain('Change tags on Cust (https://voss.cust.example)?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Confirm a live change' })).toBeNull());
    expect(transport.calls.some((c) => c.method === 'PATCH')).toBe(false);
    dialog = await addTag();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go on' }));
    await waitFor(() => expect(transport.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
  });

  it('leaves write actions to a readonly user, with a note in the action bar saying they will be refused', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    renderInstance(transport, 'readonly');
    const edit = (await screen.findByRole('button', { name: 'Edit' })) as HTMLButtonElement;
    expect(edit.disabled).toBe(false);
    expect(edit.title).toMatch(/readonly.*Permission Denied/);
    expect(screen.getByTestId('role-note').textContent).toBe('readonly: read and search only — changes will be refused');
    expect((screen.getByLabelText('New tag') as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByRole('button', { name: 'Remove tag vip' })).toBeTruthy();
  });

  it('shows an operator the Permission Denied of a tag change in the meta panel, and the tags stay', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    transport.on(
      'PATCH',
      `${LINE}+tag/`,
      fault(403, 'permission-denied', 'Permission Denied: paris.operator (operator) may not tag relation/LineRelation.'),
    );
    renderInstance(transport, 'operator');
    fireEvent.change(await screen.findByLabelText('New tag'), { target: { value: 'gold' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    const alert = await within(screen.getByTestId('instance-meta')).findByRole('alert');
    expect(alert.textContent).toMatch(/^Permission Denied: paris\.operator.*ask an administrator/);
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect((screen.getByLabelText('New tag') as HTMLInputElement).value).toBe('gold');
    expect(
      within(screen.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['vip×', 'migrated×']);
  });

  it('shows an operator the Permission Denied of a delete in the action bar, and stays on the instance', async () => {
    const transport = new ExportingTransport().on('GET', LINE, { body: lineRelation() });
    transport.on(
      'DELETE',
      LINE,
      fault(403, 'permission-denied', 'Permission Denied: paris.operator (operator) may not delete relation/LineRelation.'),
    );
    const stores = renderInstance(transport, 'operator');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Permission Denied/);
    expect(within(screen.getByTestId('instance-meta')).queryByRole('alert')).toBeNull();
    expect(stores.nav.getState().place.view).toBe('instance');
  });

  it('shows a missing instance as a fault that says to refresh, without a useless retry', async () => {
    const transport = new ExportingTransport().on('GET', LINE, fault(404, 'not-found', 'No relation/LineRelation with pkid aaaa.'));
    renderInstance(transport);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/No relation\/LineRelation.*deleted or moved/);
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('offers a retry when the service failed, and it reads the instance again', async () => {
    let calls = 0;
    const transport = new ExportingTransport().on('GET', LINE, () =>
      ++calls === 1 ? fault(503, 'unavailable', 'The store is busy.') : { body: lineRelation() },
    );
    renderInstance(transport);
    fireEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('instance-view').dataset.loadState).toBe('ready'));
  });
});
