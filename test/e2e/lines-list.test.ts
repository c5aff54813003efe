import { describe, expect, it } from 'vitest';
import { openSignedIn, PARIS } from './app-page';
import { allLines, BULK_LINES, createBulkLines, LINE } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { dataRows, goToNode, gridPkids, listSettled, openModel, resourceTable } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('lines-list');

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the lines list', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared, (env) => createBulkLines(env.api));

  it('lists lines with a filter, a sort and page 3, exactly as the API orders them', async () => {
    const env = flows.env();
    // What page 3 must hold, computed from the full listing rather than the UI's own query.
    const expected = (await allLines(env.api))
      .filter((line) => (line.data.alertingName ?? '').toLowerCase().includes('bulk'))
      .sort((a, b) => ((a.data.alertingName ?? '') < (b.data.alertingName ?? '') ? 1 : -1))
      .slice(100, 150)
      .map((line) => line.meta.pkid);
    expect(expected.length).toBe(BULK_LINES - 100);

    const page = await openSignedIn(env, flows.context());
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByLabel('Filter 1 field').selectOption('alertingName');
    await page.getByLabel('Filter 1 condition').selectOption('contains');
    await page.getByLabel('Filter 1 text').fill('bulk');
    await page.getByRole('form', { name: 'Filter' }).getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('page-range').getByText(`of ${BULK_LINES}`).waitFor();

    // Alerting Name: the first click sorts ascending, the second descending.
    const header = (sort: string) =>
      resourceTable(page).locator(`[role="columnheader"][aria-sort="${sort}"]`).filter({ hasText: 'Alerting Name' });
    const sortButton = resourceTable(page)
      .getByRole('columnheader', { name: /Alerting Name/ })
      .getByRole('button');
    await sortButton.click();
    await header('ascending').waitFor();
    await sortButton.click();
    await header('descending').waitFor();
    await listSettled(page);

    for (const next of [2, 3]) {
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.locator(`[data-testid="page-indicator"][data-page="${next}"]`).waitFor();
      await listSettled(page);
    }
    await page.getByTestId('page-range').getByText(`101–${BULK_LINES} of ${BULK_LINES}`).waitFor();
    expect(await dataRows(page).first().getAttribute('data-pkid')).toBe(expected[0]);
    await screenshot(page, transport, 'resources-list-page-3');
    expect(await gridPkids(page)).toEqual(expected);
  });
});
