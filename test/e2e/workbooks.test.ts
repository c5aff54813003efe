import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openSignedIn } from './app-page';
import { screenshot } from './browser';
import { TRANSPORTS } from './environment';
import { useBrowser, useFlows } from './suite';

const shared = useBrowser('workbooks');
const FIXTURE = join(__dirname, '..', 'fixtures', 'line-relation-libreoffice.xlsx');

function workbookRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Workbooks' }).locator('tbody tr').filter({ hasText: name });
}

/** From the Workbooks area: opens the LibreOffice fixture as a staged workbook, waits for its check, opens it in the grid. */
async function openFixtureInGrid(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
  await page.getByLabel('Open .xlsx file').setInputFiles(FIXTURE);
  const opened = workbookRow(page, 'line-relation-libreoffice.xlsx').first();
  await opened
    .locator('.pill')
    .filter({ hasText: /error|ready/ })
    .waitFor();
  await opened.getByRole('button', { name: 'line-relation-libreoffice.xlsx', exact: true }).click();
}

describe.skipIf(shared.skip).each(TRANSPORTS)('over %s: the Workbooks area', { timeout: 60_000 }, (transport) => {
  const flows = useFlows(transport, shared);

  it('opens an .xlsx file as a staged workbook, starts one from a template, and deletes one', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Workbooks' }).click();
    await page.getByRole('heading', { name: /Workbooks/ }).waitFor();

    await page.getByLabel('Open .xlsx file').setInputFiles(FIXTURE);
    const opened = workbookRow(page, 'line-relation-libreoffice.xlsx');
    // Staged and checked: the state says how many errors the file has (the fixture holds some).
    await opened
      .locator('.pill')
      .filter({ hasText: /error|ready/ })
      .waitFor();
    expect(await opened.locator('td').nth(4).textContent()).toBe('admin');
    await screenshot(page, transport, 'workbooks-list');

    await page.getByLabel('Template model').selectOption('relation/LineRelation');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const template = workbookRow(page, 'LineRelation-template.xlsx');
    await template.locator('.pill').filter({ hasText: /ready/ }).waitFor();
    expect(await template.locator('td').nth(2).textContent()).toBe('0');

    await template.getByRole('button', { name: 'Delete LineRelation-template.xlsx' }).click();
    await template.waitFor({ state: 'detached' });
    expect(await workbookRow(page, 'line-relation-libreoffice.xlsx').count()).toBe(1);
  });

  it('opens a workbook in the grid, shows its cells and issues, and takes an edit typed into a cell, then undoes it', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page);
    // The grid paints on a canvas; its accessible table of the visible cells lives inside it (not visible).
    const grid = page.locator('[role="grid"]');
    await grid.waitFor({ state: 'attached' });
    const cellWith = (text: string) => grid.locator('[role="gridcell"]').filter({ hasText: new RegExp(`^${text}$`) });
    await cellWith('\\+33140001050').waitFor({ state: 'attached' });
    const counts = page.getByTestId('workbook-counts');
    const before = (await counts.textContent()) ?? '';
    expect(before).toMatch(/ 0 errors/);
    // As a user does: click the first row's first cell, arrow over to the directory number, type, Enter.
    const canvas = page.getByTestId('data-grid-canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the grid has no size');
    await page.mouse.click(box.x + 80, box.y + 36 + 10);
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const editor = page.locator('#portal textarea, #portal input').first();
    await editor.waitFor();
    await editor.fill('not a number');
    await editor.press('Enter');
    await cellWith('not a number').waitFor({ state: 'attached' });
    await counts.filter({ hasText: / 1 error,/ }).waitFor();
    await screenshot(page, transport, 'workbook-grid-edited');
    await page.getByRole('button', { name: 'Undo' }).click();
    await cellWith('\\+33140001050').waitFor({ state: 'attached' });
    await counts.filter({ hasText: before }).waitFor();
  });

  it('plans and loads a workbook from the grid, with the load counts, and saves it with its issues', async () => {
    const page = await openSignedIn(flows.env(), flows.context());
    await openFixtureInGrid(page);
    await page.locator('[role="grid"]').waitFor({ state: 'attached' });

    await page.getByRole('button', { name: 'Plan', exact: true }).click();
    const totals = page.getByTestId('plan-totals');
    await totals.waitFor();
    expect(await totals.textContent()).toMatch(/plan: \d+ add/);

    await page.getByRole('button', { name: 'Load', exact: true }).click();
    // Every row runs: the state ends as loaded n/6 (rows the store refuses are counted as failed).
    const state = page.getByTestId('workbook-state');
    await state.filter({ hasText: /loaded \d+\/6/ }).waitFor();
    expect(await page.getByRole('progressbar', { name: 'Load progress' }).getAttribute('value')).toBe('6');
    await screenshot(page, transport, 'workbook-loaded');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save with issues' }).click();
    expect((await download).suggestedFilename()).toBe('line-relation-libreoffice.xlsx');
  });
});
