// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createStores, StoresContext } from '../../renderer/src/store/stores';
import { WorkbooksView } from '../../renderer/src/views/WorkbooksView';
import { FakeTransport } from './fake-transport';
import { workbookSummary } from './workbook-fixtures';

afterEach(cleanup);

const REASON =
  'sites.xlsx is not an .xlsx workbook (it is an old .xls workbook): open it in Excel or LibreOffice and save it as "Excel Workbook (.xlsx)".';

describe('a file that could not be opened', () => {
  it('says why in its row of the Workbooks list, not only in a tooltip', async () => {
    const transport = new FakeTransport()
      .on('GET', '/workstation/workspaces/', { body: { workspaces: [] } })
      .on('GET', '/workstation/workbooks/', {
        body: {
          workbooks: [
            workbookSummary('w1', { name: 'sites.xlsx', state: 'failed', problem: REASON, load: null }),
            workbookSummary('w2', { name: 'lines.xlsx' }),
          ],
        },
      });
    const stores = createStores(transport);
    stores.nav.getState().go({ view: 'workbooks' });
    render(
      <StoresContext.Provider value={stores}>
        <WorkbooksView />
      </StoresContext.Provider>,
    );
    await act(async () => undefined);
    const table = screen.getByRole('table', { name: 'Workbooks' });
    const failed = table.querySelector('[data-workbook="w1"]') as HTMLElement;
    expect(within(failed).getByRole('alert').textContent).toBe(REASON);
    expect(within(failed).getByText('could not be opened')).toBeTruthy();
    const fine = table.querySelector('[data-workbook="w2"]') as HTMLElement;
    expect(within(fine).queryByRole('alert')).toBeNull();
  });
});
