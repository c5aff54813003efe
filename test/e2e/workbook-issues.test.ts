import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';
import { cellWith, clickGrid, editChosenCell, gridBox, openFixtureInGrid, press } from './workbook-grid';

/**
 * The grid's issue tools, as a user works them: the issue panel's counts, a suggested fix
 * applied with Ctrl+., only rows with errors, F8 through them, the plan's badge on each row,
 * the load's progress and each row's outcome with a way to its transaction.
 */
const shared = useBrowser('workbook-issues');

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the workbook issue tools', { timeout: 90_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('applies a suggested fix, filters to errors and steps through them with F8, plans with badges, loads with progress and outcomes', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page);
    const grid = page.locator('[role="grid"]');
    await grid.waitFor({ state: 'attached' });
    const panel = page.getByTestId('issue-panel');
    const counts = page.getByTestId('workbook-counts');
    const cellIssues = page.getByTestId('cell-issues');
    const box = await gridBox(page);

    // The fixture's directory number stored as a number: a warning with a fix, counted in the panel.
    const numeric = panel.getByRole('list', { name: 'Issues by code' }).getByRole('button', { name: /numeric/ });
    await numeric.waitFor();
    const warningsBefore = Number(/(\d+) warning/.exec((await counts.textContent()) ?? '')?.[1]);
    expect(warningsBefore).toBeGreaterThan(0);
    await numeric.click();
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /\d+ rows? listed/ })
      .waitFor();
    await clickGrid(page, box.x + 80, box.y + 46);
    await page.keyboard.press('F8');
    await cellIssues.getByTestId('cell-fixes').waitFor();
    await screenshot(page, transport, 'workbook-issue-fix');
    await page.keyboard.press('Control+.');
    await counts.filter({ hasText: new RegExp(` ${warningsBefore - 1} warning`) }).waitFor();
    await panel.getByRole('button', { name: 'Show all rows' }).click();

    // An error typed on purpose: only rows with errors lists it, F8 lands on it.
    await clickGrid(page, box.x + 80, box.y + 46);
    await press(page, 'ArrowRight', 3);
    await editChosenCell(page, 'not a number');
    await counts.filter({ hasText: / 1 error,/ }).waitFor();
    await panel.getByRole('checkbox', { name: 'Only rows with errors' }).check();
    await page
      .getByTestId('filter-status')
      .filter({ hasText: /^1 row listed/ })
      .waitFor();
    await cellWith(page, 'not a number').waitFor({ state: 'attached' });
    await clickGrid(page, box.x + 20, box.y + 46);
    await page.keyboard.press('F8');
    await cellIssues.locator('.cell-issue.error').waitFor();
    await screenshot(page, transport, 'workbook-only-errors');
    await page.keyboard.press('Shift+F8');
    await cellIssues.locator('.cell-issue.error').waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await counts.filter({ hasText: / 0 errors,/ }).waitFor();
    await panel.getByRole('checkbox', { name: 'Only rows with errors' }).uncheck();

    // Plan: a badge per row in the Plan column.
    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    await page.getByTestId('plan-totals').waitFor();
    const badges = grid.locator('[role="gridcell"]').filter({ hasText: /^(add|modify|delete|unchanged|conflict|error)$/ });
    await badges.first().waitFor({ state: 'attached' });
    expect(await badges.count()).toBe(6);
    await screenshot(page, transport, 'workbook-plan-badges');

    // Load: the progress bar fills, each row says what loading it did, and links to its transaction.
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page
      .getByTestId('workbook-state')
      .filter({ hasText: /loaded \d+\/6/ })
      .waitFor();
    expect(await page.getByRole('progressbar', { name: 'Load progress' }).getAttribute('value')).toBe('6');
    // The Outcome column follows Plan, past the sheet's columns: arrow over to it, as a user would.
    await clickGrid(page, box.x + 80, box.y + 46);
    await press(page, 'ArrowRight', 6);
    const outcomes = grid.locator('[role="gridcell"]').filter({ hasText: /^(loaded|failed|conflict)$/ });
    await outcomes.first().waitFor({ state: 'attached' });
    expect(await outcomes.count()).toBe(6);
    await screenshot(page, transport, 'workbook-row-outcomes');
    await cellIssues.getByTestId('row-outcome').waitFor();
    await cellIssues.getByRole('button', { name: 'Open its transaction' }).click();
    await page.getByTestId('transaction-view').waitFor();
  });
});
