// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { FormView } from '../../renderer/src/views/FormView';
import { fault, type FakeTransport } from './fake-transport';
import { ACCEPTED, ACME_POLICY, bodyOf, CFT_PKID, DEFAULT_POLICY, LINE_HREF, lineService, SITE } from './form-fixtures';

afterEach(cleanup);

async function showForm(transport: FakeTransport, href?: string): Promise<Stores> {
  const stores = createStores(transport);
  stores.hierarchy.setState({ selected: SITE });
  stores.nav.getState().go({ view: 'form', modelType: 'relation/LineRelation', href });
  render(
    <StoresContext.Provider value={stores}>
      <FormView />
    </StoresContext.Provider>,
  );
  await screen.findByRole('button', { name: 'Save' });
  return stores;
}

const input = (name: string): HTMLInputElement | null => document.querySelector<HTMLInputElement>(`[name="${name}"]`);

describe('form view', () => {
  it('lays out the policy groups with titles, help, choices, checkboxes, read-only and hidden fields', async () => {
    await showForm(lineService());
    const form = screen.getByTestId('resource-form');
    expect(within(form).getByRole('heading', { name: 'Add Line Relation' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Line' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Forwarding' })).toBeTruthy();
    const pattern = screen.getByLabelText(/Directory Number/);
    expect(pattern.getAttribute('name')).toBe('pattern');
    expect(screen.getByText('E.164 with the leading +').id).toBe(pattern.getAttribute('aria-describedby'));
    // Hidden by the policy: not shown, nested or not.
    expect(input('patternPrecedence')).toBeNull();
    expect(input('callForwardAll.callingSearchSpaceName')).toBeNull();
    expect((screen.getByLabelText('Usage') as HTMLInputElement).disabled).toBe(true);
    const autoAnswer = screen.getByLabelText('Auto Answer') as HTMLSelectElement;
    expect(autoAnswer.tagName).toBe('SELECT');
    expect([...autoAnswer.options].map((o) => o.text)).toEqual(['—', 'Off', 'Headset']);
    expect((screen.getByLabelText('Reject Anonymous Calls') as HTMLInputElement).type).toBe('checkbox');
    const forwardAll = screen.getByRole('group', { name: 'Call Forward All' });
    expect(within(forwardAll).getByLabelText('Destination').getAttribute('name')).toBe('callForwardAll.destination');
  });

  it('blocks Save while a required field is empty and says so next to it and at the top', async () => {
    const transport = lineService();
    await showForm(transport);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    const pattern = screen.getByLabelText(/Directory Number/);
    expect(pattern.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(pattern.getAttribute('aria-describedby')?.split(' ')[1] ?? '')?.textContent).toBe(
      'Directory Number is required.',
    );
    expect(within(screen.getByTestId('form-errors')).getByText('Directory Number is required.')).toBeTruthy();
    expect(transport.calls.some((call) => call.method === 'POST')).toBe(false);
    fireEvent.change(pattern, { target: { value: '+33140005555' } });
    expect(screen.queryByTestId('form-errors')).toBeNull();
  });

  it('shows what a picked template fills and marks those fields', async () => {
    await showForm(lineService());
    expect(screen.queryByText('from template')).toBeNull();
    fireEvent.change(screen.getByLabelText('Configuration template'), { target: { value: CFT_PKID } });
    expect(screen.getByText(/This template fills 4 fields/)).toBeTruthy();
    // A macro is shown as the value it makes, never as its text: here it waits for the number.
    const fills = screen.getByText(/This template fills 4 fields/).closest('.template-fills');
    expect(fills?.textContent).toContain('Alerting Name ← ‹Directory Number› Paris once Directory Number is filled');
    expect(fills?.textContent).not.toContain('{{');
    const alerting = screen.getByLabelText(/Alerting Name/) as HTMLInputElement;
    expect(alerting.closest('.form-field')?.textContent).toContain('from template');
    expect([alerting.value, alerting.placeholder]).toEqual(['', '‹Directory Number› Paris']);
    // Typed, the number makes the value, in the field's grey text and in the list.
    fireEvent.change(screen.getByLabelText(/Directory Number/), { target: { value: '+33140005555' } });
    expect([alerting.value, alerting.placeholder]).toEqual(['', '+33140005555 Paris']);
    expect(fills?.textContent).toContain('Alerting Name ← +33140005555 Paris');
    expect(screen.getByLabelText(/Forward to Voice Mail/, { selector: '[name="callForwardBusy.forwardToVoiceMail"]' })).toHaveProperty(
      'checked',
      true,
    );
    expect(screen.getByLabelText(/Description/).closest('.form-field')?.textContent).not.toContain('from template');
    expect(screen.getByText(/Values you type win/)).toBeTruthy();
  });

  it('shows a filled field empty with the template value in grey, the user value when typed, the default once unpicked', async () => {
    await showForm(lineService());
    const presence = screen.getByLabelText(/Presence Group/) as HTMLInputElement;
    const partition = screen.getByLabelText(/Route Partition/) as HTMLInputElement;
    expect(presence.value).toBe('Standard Presence group');
    fireEvent.change(partition, { target: { value: 'Mine-PT' } });
    fireEvent.change(screen.getByLabelText('Configuration template'), { target: { value: CFT_PKID } });
    // The schema default would not be saved: it is not shown.
    expect([presence.value, presence.placeholder]).toEqual(['', 'Paris Presence group']);
    expect([partition.value, partition.placeholder]).toEqual(['Mine-PT', '']);
    expect(partition.closest('.form-field')?.textContent).toContain('Your value replaces the template’s.');
    fireEvent.change(screen.getByLabelText('Configuration template'), { target: { value: '' } });
    expect([presence.value, presence.placeholder]).toEqual(['Standard Presence group', '']);
    expect(partition.value).toBe('Mine-PT');
  });

  it('sends what the fields show: an empty filled field is left to the template, a shown value is sent', async () => {
    const transport = lineService();
    await showForm(transport);
    fireEvent.change(screen.getByLabelText('Configuration template'), { target: { value: CFT_PKID } });
    fireEvent.change(screen.getByLabelText(/Directory Number/), { target: { value: '+33140005555' } });
    fireEvent.change(screen.getByLabelText(/Route Partition/), { target: { value: 'Mine-PT' } });
    const shown = Object.fromEntries(['alertingName', 'routePartitionName', 'presenceGroupName'].map((name) => [name, input(name)?.value]));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    const sent = bodyOf(transport, 'POST') ?? {};
    for (const [name, value] of Object.entries(shown)) expect([name, sent[name]]).toEqual([name, value === '' ? undefined : value]);
  });

  it('re-lays the form out with the picked layout, keeping what was typed', async () => {
    const transport = lineService();
    await showForm(transport);
    const layout = screen.getByLabelText('Form layout') as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Acme Line Form (sys.hcs.Telco.Acme)' });
    expect([...layout.options].map((o) => o.text)).toEqual([
      'Default layout',
      'Acme Line Form (sys.hcs.Telco.Acme)',
      'default (sys.hcs.Telco.Acme)',
    ]);
    expect(layout.value).toBe(DEFAULT_POLICY);
    fireEvent.change(screen.getByLabelText(/Alerting Name/), { target: { value: 'Reception' } });
    await act(async () => fireEvent.change(layout, { target: { value: ACME_POLICY } }));
    expect(await screen.findByRole('region', { name: 'Essentials' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Line' })).toBeNull();
    expect((screen.getByLabelText(/Alerting Name/) as HTMLInputElement).value).toBe('Reception');
    expect((screen.getByLabelText(/Route Partition/) as HTMLInputElement).value).toBe('Acme-PT');
    expect(screen.getByText('What Acme engineers fill in for a line')).toBeTruthy();
    expect(transport.lastQuery('/api/relation/LineRelation/add/').get('policy')).toBe(ACME_POLICY);
  });

  it('saves, follows the transaction and opens its detail', async () => {
    const transport = lineService();
    const stores = await showForm(transport);
    fireEvent.change(screen.getByLabelText(/Directory Number/), { target: { value: '+33140005555' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(bodyOf(transport, 'POST')?.pattern).toBe('+33140005555');
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: 't-1' });
    expect(stores.status.getState().running['t-1']?.label ?? stores.status.getState().lastFinished?.label).toBe('Add Line Relation');
  });

  it('refreshes the parent node in the tree once a new node was added with success', async () => {
    const nodeForm = {
      data: {},
      schema: {
        title: 'Hierarchy Node',
        type: 'object',
        properties: {
          name: { title: 'Name', type: 'string', required: true },
          node_type: { title: 'Node Type', type: 'string', required: true, choices: [{ value: 'Site', title: 'Site' }] },
        },
      },
      meta: {},
    };
    const transport = lineService()
      .on('GET', '/api/data/HierarchyNode/add/', { body: nodeForm })
      .on('POST', '/api/data/HierarchyNode/', ACCEPTED);
    const stores = createStores(transport);
    const refreshChildren = vi.fn(async () => undefined);
    stores.hierarchy.setState({ selected: SITE, refreshChildren });
    stores.nav.getState().go({ view: 'form', modelType: 'data/HierarchyNode' });
    render(
      <StoresContext.Provider value={stores}>
        <FormView />
      </StoresContext.Provider>,
    );
    fireEvent.change(await screen.findByLabelText(/Name/), { target: { value: 'Lyon' } });
    fireEvent.change(screen.getByLabelText(/Node Type/), { target: { value: 'Site' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(bodyOf(transport, 'POST')).toEqual({ name: 'Lyon', node_type: 'Site' });
    await vi.waitFor(() => expect(refreshChildren).toHaveBeenCalledWith(SITE));
  });

  it('edits: prefilled, a server message lands on its field', async () => {
    const transport = lineService().on('PUT', LINE_HREF, {
      status: 400,
      body: {
        success: false,
        http_code: 400,
        code: 'validation-failed',
        message: 'Invalid data',
        details: [{ field: 'alertingName', message: 'is already used by another line' }],
      },
    });
    await showForm(transport, LINE_HREF);
    expect(screen.getByRole('heading', { name: 'Edit Line Relation +33140001000' })).toBeTruthy();
    const alerting = screen.getByLabelText(/Alerting Name/) as HTMLInputElement;
    expect(alerting.value).toBe('Alice Martin');
    fireEvent.change(alerting, { target: { value: 'Alice M.' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(bodyOf(transport, 'PUT')).toEqual({ alertingName: 'Alice M.' });
    expect(alerting.closest('.form-field')?.textContent).toContain('is already used by another line');
  });

  it('shows Permission Denied when the form may not be opened', async () => {
    const transport = lineService().on(
      'GET',
      '/api/relation/LineRelation/add/',
      fault(403, 'permission-denied', 'Permission Denied: not your hierarchy.'),
    );
    const stores = createStores(transport);
    stores.hierarchy.setState({ selected: SITE });
    stores.nav.getState().go({ view: 'form', modelType: 'relation/LineRelation' });
    render(
      <StoresContext.Provider value={stores}>
        <FormView />
      </StoresContext.Provider>,
    );
    expect(await screen.findByRole('heading', { name: 'Permission Denied' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Permission Denied: not your hierarchy.');
  });
});
