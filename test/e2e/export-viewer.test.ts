import { describe, expect, it } from 'vitest';
import { openSignedIn, PARIS } from './app-page';
import { allLines, LINE } from './api-fixtures';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { goToNode, openModel } from './resource-page';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('export-viewer');

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the export viewer', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('views an export of the lines read-only, finds a number in it, and turns it into a workbook with the same rows', async () => {
    const env = flows.env();
    const lines = await allLines(env.api);
    expect(lines.length).toBeGreaterThan(3);
    const wanted = lines[2].data.pattern;

    const page = await openSignedIn(env, flows.context());
    await goToNode(page, PARIS);
    await openModel(page, LINE);
    await page.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'View', exact: true }).click();

    // The export, as its file is: a tab per sheet, the directive above, its titles as the grid's header.
    await page.getByRole('heading', { name: 'LineRelation-export.xlsx' }).waitFor();
    const tab = page.getByRole('tablist', { name: 'Sheets' }).getByRole('tab', { selected: true });
    await tab.waitFor();
    expect(await page.getByRole('tablist', { name: 'Sheets' }).getByRole('tab').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByLabel('Directive').textContent()).toMatch(
      /^entity: relation\/LineRelation; hierarchy: sys\.hcs\.Telco\.Acme\.Paris/,
    );
    await page
      .getByTestId('viewer-counts')
      .filter({ hasText: `${lines.length} rows` })
      .waitFor();
    const grid = page.locator('[role="grid"]');
    await grid.waitFor({ state: 'attached' });
    await grid
      .locator('[role="columnheader"]')
      .filter({ hasText: /Directory Number/ })
      .first()
      .waitFor({ state: 'attached' });
    const cellWith = (text: string) =>
      grid.locator('[role="gridcell"]').filter({ hasText: new RegExp(`^${text.replace(/[+]/g, '\\+')}$`) });
    await cellWith(lines[0].data.pattern).first().waitFor({ state: 'attached' });
    await screenshot(page, transport, 'export-viewer');

    // Find: the grid moves to the match and says which cell it is on.
    await page.getByLabel('Find', { exact: true }).fill(wanted);
    await page.getByLabel('Find', { exact: true }).press('Enter');
    await page
      .getByTestId('viewer-find-status')
      .filter({ hasText: /^1 of \d+/ })
      .waitFor();
    await page
      .getByTestId('viewer-cell')
      .filter({ hasText: `: ${wanted}` })
      .waitFor();
    await screenshot(page, transport, 'export-viewer-find');

    await page.getByRole('button', { name: 'Edit as workbook' }).click();
    await page.getByRole('heading', { name: 'LineRelation-export.xlsx' }).waitFor();
    const counts = page.getByTestId('workbook-counts');
    await counts.filter({ hasText: new RegExp(`^${lines.length} rows`) }).waitFor();
    const workbookGrid = page.locator('[role="grid"]');
    await workbookGrid
      .locator('[role="gridcell"]')
      .filter({ hasText: new RegExp(`^${lines[0].data.pattern.replace(/[+]/g, '\\+')}$`) })
      .first()
      .waitFor({ state: 'attached' });
    // Opened once staged: the grid reads its sheets with no fault.
    expect(await page.locator('.fault').count()).toBe(0);
    await screenshot(page, transport, 'export-viewer-edit-as-workbook');
  });
});
