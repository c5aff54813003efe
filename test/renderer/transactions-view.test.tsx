// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { TransactionsView } from '../../renderer/src/views/TransactionsView';
import { TransactionView } from '../../renderer/src/views/TransactionView';
import { FakeTransport } from './fake-transport';
import { txDetail, txList, txSummary } from './transactions-fixtures';

const LIST = '/api/tool/Transaction/';
afterEach(cleanup);

function show(stores: Stores, view: 'transactions' | 'transaction') {
  return render(
    <StoresContext.Provider value={stores}>{view === 'transaction' ? <TransactionView /> : <TransactionsView />}</StoresContext.Provider>,
  );
}

describe('transaction detail', () => {
  it('shows a failed, rolled-back transaction with its message, log severities in order and no link to the resource it did not create', async () => {
    const detail = txDetail(
      'tx-f',
      'Fail',
      [
        { id: 1, severity: 'info', message: 'Transaction started: Create relation/LineRelation +331' },
        { id: 2, severity: 'info', message: 'Step 1 - Start Add device line' },
        { id: 3, severity: 'error', message: 'Step 1 - Failed: already exists' },
      ],
      { rolled_back: 'Yes', message: 'Line Relation with pattern +331 already exists.' },
    );
    const stores = createStores(new FakeTransport().on('GET', `${LIST}tx-f/`, { body: detail }));
    stores.nav.getState().go({ view: 'transaction', transactionId: 'tx-f' });
    show(stores, 'transaction');
    const view = await screen.findByTestId('transaction-view');
    expect(view.getAttribute('data-status')).toBe('Fail');
    expect(screen.getByText('Rolled back: Yes')).toBeTruthy();
    expect(within(screen.getByRole('alert')).getByText('Line Relation with pattern +331 already exists.')).toBeTruthy();
    const entries = screen.getAllByTestId('log-entry');
    expect(entries.map((entry) => entry.getAttribute('data-severity'))).toEqual(['info', 'info', 'error']);
    expect(entries[2]?.textContent).toContain('Step 1 - Failed: already exists');
    expect(entries[2]?.querySelector('.severity-error')?.textContent).toBe('error');
    const resource = screen.getByTestId('transaction-resource');
    expect(resource.querySelector('button')).toBeNull();
    expect(resource.textContent).toContain('not created');
  });

  it('links to the resource it changed, to its parent and to its sub-transactions', async () => {
    const pkid = 'a'.repeat(24);
    const detail = txDetail('tx-m', 'Success', [{ id: 1, severity: 'info', message: 'done' }], {
      action: 'Modify',
      parent_id: 'tx-parent',
      sub_transactions: [{ transaction_id: 'tx-child', href: `${LIST}tx-child/`, status: 'Fail', action: 'Modify', detail: 'row 3' }],
    });
    const stores = createStores(new FakeTransport().on('GET', `${LIST}tx-m/`, { body: detail }));
    stores.nav.getState().go({ view: 'transaction', transactionId: 'tx-m' });
    show(stores, 'transaction');
    await screen.findByTestId('transaction-view');
    expect(screen.queryByText('Rolled back: Yes')).toBeNull();

    fireEvent.click(within(screen.getByTestId('transaction-resource')).getByRole('button'));
    expect(stores.nav.getState().place).toEqual({
      view: 'instance',
      modelType: 'relation/LineRelation',
      href: `/api/relation/LineRelation/${pkid}/`,
    });

    act(() => stores.nav.getState().back());
    fireEvent.click(await screen.findByRole('button', { name: /Parent transaction/ }));
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: 'tx-parent' });

    act(() => stores.nav.getState().back());
    const subs = await screen.findByRole('list', { name: 'Sub-transactions' });
    expect(within(subs).getByText('Fail').className).toContain('pill');
    fireEvent.click(within(subs).getByRole('button'));
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: 'tx-child' });
  });
});

describe('a big parent transaction', () => {
  it('counts all its rows from the parent, lists its first 100 and reads the next page only when asked', async () => {
    const sub = (n: number, status: string) => ({
      transaction_id: `tx-row-${n}`,
      href: `${LIST}tx-row-${n}/`,
      status,
      action: 'Create',
      detail: `row ${n + 5}`,
    });
    const detail = txDetail('tx-load', 'Fail', [{ id: 1, severity: 'info', message: 'loaded' }], {
      action: 'Execute Bulk Load',
      sub_transactions: Array.from({ length: 100 }, (_, n) => sub(n, n === 7 ? 'Fail' : 'Success')),
      sub_transaction_counts: { total: 30_000, Success: 27_000, Fail: 3_000 },
    });
    const transport = new FakeTransport().on('GET', `${LIST}tx-load/`, { body: detail }).on('GET', LIST, (call) => {
      const skip = Number(new URL(call.url, 'http://x').searchParams.get('skip'));
      return {
        body: txList(
          Array.from({ length: 100 }, (_, n) => txSummary(`tx-row-${skip + n}`, 'Fail')),
          30_000,
        ),
      };
    });
    const stores = createStores(transport);
    stores.nav.getState().go({ view: 'transaction', transactionId: 'tx-load' });
    show(stores, 'transaction');
    const subs = await screen.findByRole('list', { name: 'Sub-transactions' });
    expect(screen.getByTestId('sub-transaction-counts').textContent).toBe('(30,000, 3,000 failed)');
    expect(within(subs).getAllByRole('button')).toHaveLength(100);
    // The failed row of the page first.
    expect(within(subs).getAllByRole('button')[0].getAttribute('data-transaction-id')).toBe('tx-row-7');
    expect(screen.getByText(/29,900 more/)).toBeTruthy();
    expect(transport.calls.filter((call) => call.url.startsWith(`${LIST}?`))).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Show 100 more' }));
    await screen.findByText(/29,800 more/);
    const page = transport.calls.find((call) => call.url.startsWith(`${LIST}?`));
    const query = new URL(page?.url ?? '', 'http://x').searchParams;
    expect([query.get('parent_id'), query.get('skip'), query.get('limit')]).toEqual(['tx-load', '100', '100']);
    expect(within(subs).getAllByRole('button')).toHaveLength(200);
  });
});

describe('transactions list', () => {
  it('lists the selected node’s transactions with status pills, filters on the service and opens a row', async () => {
    const node = 'c'.repeat(24);
    const transport = new FakeTransport().on('GET', LIST, {
      body: txList([txSummary('11111111-aaaa', 'Success'), txSummary('22222222-bbbb', 'Fail', { action: 'Delete' })], 2),
    });
    const stores = createStores(transport);
    stores.hierarchy.setState({ selected: node });
    show(stores, 'transactions');
    const table = await screen.findByTestId('transaction-table');
    expect(table.getAttribute('data-list-state')).toBe('ready');
    expect(transport.lastQuery(LIST).get('hierarchy')).toBe(node);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('.pill')?.textContent)).toEqual(['Success', 'Fail']);
    expect(rows[1]?.textContent).toContain('22222222');

    await act(async () => {
      fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Fail' } });
    });
    expect(transport.lastQuery(LIST).getAll('filter_text')).toEqual(['Fail', 'Fail']);

    fireEvent.click(rows[1]!.querySelectorAll('td')[3]!);
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: '22222222-bbbb' });
  });

  it('says so when the filters match nothing, and clears them', async () => {
    const transport = new FakeTransport().on('GET', LIST, { body: txList([]) });
    const stores = createStores(transport);
    stores.hierarchy.setState({ selected: 'c'.repeat(24) });
    stores.transactions.setState({ filters: { status: 'Queued', modelType: '' } });
    show(stores, 'transactions');
    expect(await screen.findByText('No transaction matches these filters.')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    });
    expect(transport.lastQuery(LIST).has('filter_field')).toBe(false);
    expect(screen.getByText('No transactions here yet.')).toBeTruthy();
  });
});
