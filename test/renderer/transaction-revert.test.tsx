// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStores, StoresContext, type Stores } from '../../renderer/src/store/stores';
import { TransactionView } from '../../renderer/src/views/TransactionView';
import { RevertNote } from '../../renderer/src/views/workbooks/RevertNote';
import { FakeTransport } from './fake-transport';
import { txDetail } from './transactions-fixtures';
import { workbookInfo } from './workbook-fixtures';

/**
 * Revert on a load's transaction (README: Reverting a load): a finished bulk load offers it, makes
 * its revert plan and opens that workbook in the grid; the load lists its reverts and a revert's
 * load the load it reverts; a load still running, or a row's transaction, offers none.
 */
const LIST = '/api/tool/Transaction/';
const FIRST = '1f0c2a8d-5b7e-4c1a-9d3f-2e6b8a4c0d11';
afterEach(cleanup);

function show(stores: Stores, id: string) {
  stores.nav.getState().go({ view: 'transaction', transactionId: id });
  return render(
    <StoresContext.Provider value={stores}>
      <TransactionView />
    </StoresContext.Provider>,
  );
}

const load = (id: string, status: string, extra: Record<string, unknown> = {}) =>
  txDetail(id, status, [{ id: 1, severity: 'info', message: 'done' }], {
    action: 'Execute Bulk Load',
    model_type: 'tool/BulkLoad',
    detail: '[ 3/3 ] succeeded from [ 1 ] sheet in lines.xlsx',
    ...extra,
  });

describe('Revert on a bulk load', () => {
  it('makes the revert plan and opens it in the workbook grid, and lists the reverts made before', async () => {
    const transport = new FakeTransport()
      .on('GET', `${LIST}load-1/`, { body: load('load-1', 'Success') })
      .on('GET', '/workstation/transactions/load-1/revert/', {
        body: {
          transaction_id: 'load-1',
          reverts: null,
          reverted_by: [
            {
              workbook_id: 'wb-old',
              name: 'Revert of lines.xlsx (load-1)',
              state: 'planned',
              plan: { revision: 3, totals: { add: 1, modify: 0, delete: 2, unchanged: 0, conflict: 1, error: 0 } },
              loads: [],
            },
          ],
        },
      })
      .on('POST', '/workstation/transactions/load-1/revert/', {
        status: 202,
        body: {
          success: true,
          transaction_id: 'load-1',
          rows: 3,
          not_revertable: 0,
          failed_rows: 0,
          workbook: { id: 'wb-new', state: 'planning' },
        },
      });
    const stores = createStores(transport);
    show(stores, 'load-1');
    const panel = await screen.findByTestId('transaction-revert');
    const made = await within(panel).findByRole('list', { name: 'Reverts of this load' });
    expect(made.textContent).toContain('planned: 1 conflict(s), 0 error(s)');
    fireEvent.click(within(panel).getByRole('button', { name: 'Revert this load...' }));
    await vi.waitFor(() => expect(stores.nav.getState().place.view).toBe('workbook'));
    expect(transport.calls.filter((call) => call.method === 'POST').map((call) => call.url)).toEqual([
      '/workstation/transactions/load-1/revert/',
    ]);
    expect(stores.nav.getState().place).toEqual({ view: 'workbook', workbookId: 'wb-new' });
  });

  it("says why when the service refuses, and links a revert's load to the load it reverts", async () => {
    const transport = new FakeTransport()
      .on('GET', `${LIST}load-2/`, { body: load('load-2', 'Success') })
      .on('GET', '/workstation/transactions/load-2/revert/', { body: { transaction_id: 'load-2', reverts: FIRST, reverted_by: [] } })
      .on('POST', '/workstation/transactions/load-2/revert/', {
        status: 409,
        body: {
          success: false,
          http_code: 409,
          code: 'nothing-to-revert',
          message: 'Load load-2 has nothing to revert: none of its rows succeeded.',
        },
      });
    const stores = createStores(transport);
    show(stores, 'load-2');
    const panel = await screen.findByTestId('transaction-revert');
    fireEvent.click(await within(panel).findByRole('button', { name: `load ${FIRST.slice(0, 8)}` }));
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: FIRST });
    stores.nav.getState().back();
    fireEvent.click(await within(await screen.findByTestId('transaction-revert')).findByRole('button', { name: 'Revert this load...' }));
    expect((await screen.findByRole('alert')).textContent).toContain('nothing to revert');
    expect(stores.nav.getState().place.view).toBe('transaction');
  });

  it('offers nothing on a load still running nor on one row of a load', async () => {
    const running = createStores(new FakeTransport().on('GET', `${LIST}load-3/`, { body: load('load-3', 'Processing') }));
    show(running, 'load-3');
    const panel = await screen.findByTestId('transaction-revert');
    expect(within(panel).getByRole('button', { name: 'Revert this load...' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    const row = createStores(
      new FakeTransport().on('GET', `${LIST}row-1/`, {
        body: txDetail('row-1', 'Success', [{ id: 1, severity: 'info', message: 'done' }], { parent_id: 'load-1' }),
      }),
    );
    show(row, 'row-1');
    await screen.findByTestId('transaction-view');
    expect(screen.queryByTestId('transaction-revert')).toBeNull();
  });
});

describe('a revert plan in the workbook grid', () => {
  it('says which load it reverts, and leads to it', async () => {
    const transport = new FakeTransport()
      .on('GET', '/workstation/workbooks/wb-r/', { body: { success: true, workbook: workbookInfo('wb-r', [], { reverts: FIRST }) } })
      .on('GET', '/workstation/workbooks/wb-r/sheets/0/rows/', { body: { revision: 1, total: 0, skip: 0, rows: [], next_after: null } });
    const stores = createStores(transport);
    await stores.workbook.getState().open('wb-r');
    render(
      <StoresContext.Provider value={stores}>
        <RevertNote />
      </StoresContext.Provider>,
    );
    const note = await screen.findByTestId('revert-note');
    fireEvent.click(within(note).getByRole('button', { name: `load ${FIRST.slice(0, 8)}` }));
    expect(stores.nav.getState().place).toEqual({ view: 'transaction', transactionId: FIRST });
  });
});
