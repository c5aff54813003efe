import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import {
  cellWith,
  chosenCell,
  clickFirstCell,
  editChosenCell,
  openedWorkbook,
  openFixtureInGrid,
  press,
  serviceRows,
} from './workbook-grid';

/**
 * Keyboard and findability in the grid (issue 32, point 7): Ctrl+F opens Find with its box
 * focused, `?` shows the sheet of keys, and the History panel lists the revisions newest first
 * with who made them, taking the workbook back to any point, as opened included.
 */
const shared = useBrowser('workbook-keys');

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: keys and history of the grid', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('finds with Ctrl+F, lists the keys on ?, and goes back to any revision from the History panel', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page, flows.env());
    const workbook = await openedWorkbook(flows.env());
    const before = await serviceRows(flows.env(), workbook);

    // Two edits, two revisions.
    await clickFirstCell(page);
    await press(page, 'ArrowRight', 4);
    await chosenCell(page, 'E2');
    await editChosenCell(page, 'First edit');
    await cellWith(page, 'First edit').waitFor({ state: 'attached' });
    // Enter kept the value and moved down, as in Excel.
    await chosenCell(page, 'E3');
    await editChosenCell(page, 'Second edit');
    await cellWith(page, 'Second edit').waitFor({ state: 'attached' });

    // Ctrl+F: the Find box takes the keys at once.
    await press(page, 'Control+f');
    const bar = page.getByRole('search', { name: 'Find and replace' });
    await bar.waitFor();
    expect(await page.evaluate('document.activeElement && document.activeElement.type')).toBe('search');
    await press(page, 'Escape');
    await bar.waitFor({ state: 'detached' });

    // ?: every key on one sheet; Escape closes it. (In the grid ? is typed into the cell, as in Excel.)
    await page.getByRole('heading', { name: 'line-relation-libreoffice.xlsx' }).click();
    await page.keyboard.press('Shift+Slash');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    expect(await sheet.textContent()).toContain('Ctrl+F or Ctrl+H');
    expect(await sheet.textContent()).toContain('Next and previous error');
    await screenshot(page, transport, 'shortcuts-sheet');
    await press(page, 'Escape');
    await sheet.waitFor({ state: 'detached' });

    // History: newest first, with the user; back to the workbook as opened, then forward to the first edit.
    await page.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('list', { name: 'Revisions, newest first' });
    await history.locator('li').nth(2).waitFor();
    const items = await history.locator('li').allTextContents();
    expect(items[0]).toMatch(/^Set E3 to “Second edit” in 'LineRelation'.*admin.*now/);
    expect(items[2]).toMatch(/^As opened/);
    await screenshot(page, transport, 'workbook-history');
    await page.getByRole('button', { name: 'Back to the workbook as opened' }).click();
    await expect.poll(() => serviceRows(flows.env(), workbook)).toEqual(before);
    await history.locator('li.undone').nth(1).waitFor();
    await history
      .locator('li')
      .nth(1)
      .getByRole('button', { name: /^Back to after: / })
      .click();
    await expect.poll(async () => (await serviceRows(flows.env(), workbook))[0][4]).toBe('First edit');
    expect((await serviceRows(flows.env(), workbook))[1][4]).toBe(before[1][4]);
  });
});
