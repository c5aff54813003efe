// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteProfile } from '../../main/service/contract/workstation-api';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { SettingsView } from '../../renderer/src/views/SettingsView';
import { fault, FakeTransport } from './fake-transport';

afterEach(cleanup);
const PROFILES = '/workstation/remote-profiles/';

function profileOf(name: string, passwordStored: boolean): RemoteProfile {
  return {
    id: `id-${name}`,
    name,
    base_url: 'https://voss.example.test',
    username: 'provisioner',
    auth_mode: 'session',
    ca_pem: null,
    timeouts: { connect_ms: 5000, response_ms: 60000, idle_ms: 30000 },
    release: null,
    detected_release: null,
    detected_at: null,
    release_line: null,
    home_hierarchy: null,
    password_stored: passwordStored,
    owner: 'admin',
    hierarchy: 'sys',
    created_at: '',
    updated_at: '',
  };
}

async function show(transport: FakeTransport) {
  const stores = createStores(transport);
  render(
    <StoresContext.Provider value={stores}>
      <SettingsView />
    </StoresContext.Provider>,
  );
  await act(async () => undefined);
  return stores;
}

describe('settings: remote deployments', () => {
  it('adds a profile with what was typed, sends the password once and empties its field', async () => {
    const transport = new FakeTransport()
      .on('GET', PROFILES, { body: { profiles: [], vault: { kind: 'memory', persistent: false, warning: null } } })
      .on('POST', PROFILES, (call) => ({
        body: { success: true, profile: { ...profileOf('AcmeProd', true), ...(call.body as object), password: undefined } },
      }))
      .on('GET', '/workstation/workspaces/', { body: { workspaces: [] } });
    await show(transport);
    expect(screen.getByText(/Passwords are kept in memory only/)).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Add a remote deployment' });
    const type = (label: string, value: string) =>
      fireEvent.change(within(form).getByLabelText(label, { exact: true }), { target: { value } });
    type('Name', 'AcmeProd');
    type('Base URL', 'https://voss.example.test');
    type('User name', 'provisioner');
    type('Password', 'typed-secret');
    type('Release (empty: detect)', '21.1');
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    });
    const posted = transport.calls.find((call) => call.method === 'POST');
    expect(posted?.body).toEqual({
      name: 'AcmeProd',
      base_url: 'https://voss.example.test',
      username: 'provisioner',
      password: 'typed-secret',
      auth_mode: 'session',
      release: '21.1',
    });
    expect((within(form).getByLabelText('Password', { exact: true }) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('table', { name: 'Remote profiles' }).textContent).toContain('AcmeProd');
  });

  it('says what is wrong with a refused profile by the labels of the form, not the API field names (issue 32, point 9)', async () => {
    const transport = new FakeTransport()
      .on('GET', PROFILES, { body: { profiles: [], vault: { kind: 'memory', persistent: false, warning: null } } })
      .on('POST', PROFILES, () => {
        const refusal = fault(
          400,
          'validation-failed',
          "The remote profile is not valid: base_url must be the deployment's address, without /api/.",
        );
        const details = [
          { field: 'base_url', message: "must be the deployment's address, without /api/" },
          { field: 'timeouts.connect_ms', message: 'must be whole milliseconds from 100 to 600000' },
        ];
        return { ...refusal, body: { ...(refusal.body as object), details } };
      });
    await show(transport);
    const form = screen.getByRole('form', { name: 'Add a remote deployment' });
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: 'https://voss.example.test/api/' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add' }));
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The remote deployment was not saved: correct these fields.');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      "Base URL must be the deployment's address, without /api/",
      'Connect timeout must be whole milliseconds from 100 to 600000',
    ]);
    expect(alert.textContent).not.toMatch(/base_url|connect_ms/);
  });

  it('enters a forgotten password again, and shows what Test connection found', async () => {
    const transport = new FakeTransport()
      .on('GET', PROFILES, { body: { profiles: [profileOf('Cust', false)], vault: { kind: 'memory', persistent: false, warning: null } } })
      .on('PUT', `${PROFILES}id-Cust/`, { body: { success: true, profile: profileOf('Cust', true) } })
      .on('POST', `${PROFILES}id-Cust/test/`, {
        body: {
          success: false,
          verdict: 'tls',
          message: 'Cust is reachable but paste that CA',
          reachable: true,
          tls: { used: true, ok: false, problem: 'X' },
          credentials: 'not-tried',
          forbidden: false,
          release: { detected: null, entered: null, message: '' },
          round_trip_ms: null,
        },
      });
    await show(transport);
    const row = screen.getByRole('table', { name: 'Remote profiles' });
    expect(row.textContent).toContain('not held');
    fireEvent.change(within(row).getByLabelText('New password of Cust'), { target: { value: 'again-secret' } });
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Set' }));
    });
    expect(transport.calls.find((call) => call.method === 'PUT')?.body).toEqual({ password: 'again-secret' });
    expect(row.textContent).toContain('held');
    expect(row.textContent).not.toContain('not held');
    await act(async () => {
      fireEvent.click(within(row).getByRole('button', { name: 'Test connection' }));
    });
    expect(within(row).getByRole('status').textContent).toBe('Cust is reachable but paste that CA');
  });

  it('edits a profile from its values: changed fields go in a PUT, an empty password keeps the held one, a live workspace follows a rename', async () => {
    const held = { ...profileOf('Cust', true), release: '21.1', timeouts: { connect_ms: 2000, response_ms: 60000, idle_ms: 30000 } };
    const transport = new FakeTransport()
      .on('GET', PROFILES, { body: { profiles: [held], vault: { kind: 'memory', persistent: false, warning: null } } })
      .on('PUT', `${PROFILES}id-Cust/`, (call) => ({
        body: { success: true, profile: { ...held, ...(call.body as object), timeouts: held.timeouts } },
      }))
      .on('GET', '/workstation/workspaces/', () => ({
        body: {
          workspaces: [
            { name: 'Local', live: false, base_url: null, profile_id: null, home_hierarchy: null },
            {
              name: transport.calls.some((c) => c.method === 'PUT') ? 'CustProd' : 'Cust',
              live: true,
              base_url: 'https://voss2.example.test',
              profile_id: 'id-Cust',
            },
          ],
        },
      }));
    const stores = await show(transport);
    await act(async () => {
      await stores.workspace.getState().load();
      await stores.workspace.getState().switchTo('Cust');
    });
    fireEvent.click(within(screen.getByRole('table', { name: 'Remote profiles' })).getByRole('button', { name: 'Edit' }));
    const form = screen.getByRole('form', { name: 'Edit Cust' });
    const input = (label: string) => within(form).getByLabelText(label, { exact: true }) as HTMLInputElement;
    expect([
      input('Name').value,
      input('Base URL').value,
      input('Release (empty: detect)').value,
      input('Connect timeout (ms)').value,
    ]).toEqual(['Cust', 'https://voss.example.test', '21.1', '2000']);
    expect(input('Password (empty: keep the one held)').value).toBe('');
    fireEvent.change(input('Name'), { target: { value: 'CustProd' } });
    fireEvent.change(input('Base URL'), { target: { value: 'https://voss2.example.test' } });
    fireEvent.change(input('Release (empty: detect)'), { target: { value: '' } });
    fireEvent.change(input('Home hierarchy (empty: ask the remote)'), { target: { value: ' sys.cust.Acme ' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    });
    const put = transport.calls.find((call) => call.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'CustProd',
      base_url: 'https://voss2.example.test',
      username: 'provisioner',
      auth_mode: 'session',
      release: null,
      home_hierarchy: 'sys.cust.Acme',
      ca_pem: null,
      timeouts: { connect_ms: 2000, response_ms: 60000, idle_ms: 30000 },
    });
    expect(screen.queryByRole('form', { name: 'Edit Cust' })).toBeNull();
    expect(screen.getByRole('table', { name: 'Remote profiles' }).textContent).toContain('CustProd');
    expect(screen.getByRole('form', { name: 'Add a remote deployment' })).toBeTruthy();
    await act(async () => undefined);
    expect(stores.workspace.getState().current).toBe('CustProd');
    expect(stores.client.liveWorkspace).toEqual({ name: 'CustProd', baseUrl: 'https://voss2.example.test' });
  });

  it('deletes a profile after the confirmation in its row; cancelled, nothing is sent', async () => {
    const transport = new FakeTransport()
      .on('GET', PROFILES, { body: { profiles: [profileOf('Cust', true)], vault: { kind: 'memory', persistent: false, warning: null } } })
      .on('DELETE', `${PROFILES}id-Cust/`, { body: { success: true, id: 'id-Cust' } })
      .on('GET', '/workstation/workspaces/', { body: { workspaces: [] } });
    await show(transport);
    const table = screen.getByRole('table', { name: 'Remote profiles' });
    fireEvent.click(within(table).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Confirm deleting Cust' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(within(table).getByRole('button', { name: 'Delete' }));
    expect(transport.calls.some((call) => call.method === 'DELETE')).toBe(false);
    await act(async () => {
      fireEvent.click(
        within(screen.getByRole('alertdialog', { name: 'Confirm deleting Cust' })).getByRole('button', { name: 'Delete Cust' }),
      );
    });
    expect(transport.calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([`${PROFILES}id-Cust/`]);
    expect(screen.getByText('No remote deployments yet')).toBeTruthy();
  });
});
