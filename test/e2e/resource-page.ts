import type { Locator, Page } from 'playwright-core';
import { treeRow } from './app-page';

/**
 * The resources view as the flows use it: pick a node with the tree's filter box, pick a model,
 * wait for the list, read the rows of the virtual grid (only those in view are in the DOM).
 */
export async function goToNode(page: Page, path: string): Promise<void> {
  const name = path.split('.').pop() ?? path;
  await page.getByLabel('Filter hierarchy nodes').fill(name);
  await page.getByRole('list', { name: 'Matching nodes' }).getByRole('button').filter({ hasText: path }).first().click();
  await treeRow(page, path).and(page.locator('[aria-selected="true"]')).waitFor();
}

export function resourceTable(page: Page): Locator {
  return page.getByTestId('resource-table');
}

/** Waits until the list has answered (ready or empty), never on a timer. */
export async function listSettled(page: Page): Promise<string> {
  await page
    .locator('[data-testid="resource-table"]:is([data-list-state="ready"],[data-list-state="empty"],[data-list-state="error"])')
    .waitFor();
  return (await resourceTable(page).getAttribute('data-list-state')) ?? '';
}

export async function openModel(page: Page, modelType: string): Promise<void> {
  await page.getByRole('region', { name: 'Resources' }).getByLabel('Model', { exact: true }).selectOption(modelType);
  await listSettled(page);
}

/** The grid's row of an instance (data rows carry data-pkid; the header row does not). */
export function dataRows(page: Page): Locator {
  return resourceTable(page).locator('[role="row"][data-pkid]');
}

/**
 * The pkids of every row of the page in the grid, in order: the grid is scrolled through, since
 * a virtual table renders only the rows in view.
 */
export async function gridPkids(page: Page): Promise<string[]> {
  const grid = resourceTable(page).getByRole('grid');
  const count = Number(await grid.getAttribute('aria-rowcount')) - 1;
  const byIndex = new Map<number, string>();
  await grid.evaluate((element) => element.scrollTo({ top: 0 }));
  for (let guard = 0; byIndex.size < count && guard < 100; guard += 1) {
    for (const row of await dataRows(page).all()) {
      byIndex.set(Number(await row.getAttribute('aria-rowindex')), (await row.getAttribute('data-pkid')) ?? '');
    }
    const last = Math.max(...byIndex.keys());
    if (byIndex.size >= count) break;
    // Scroll the last row seen to the top: the rows after it are rendered next.
    await grid.evaluate((element, index) => element.querySelector(`[aria-rowindex="${index}"]`)?.scrollIntoView({ block: 'start' }), last);
    await resourceTable(page)
      .locator(`[role="row"][aria-rowindex="${Math.min(last + 1, count + 1)}"]`)
      .waitFor();
  }
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, pkid]) => pkid);
}
