import type { Locator, Page } from 'playwright-core';
import { dataRows, goToNode, listSettled, openModel } from './resource-page';

/**
 * The form, the transaction detail and the instance view as the flows use them. Fields are
 * found by their `name` (the field path), as the brief's hooks promise.
 */
export function resourceForm(page: Page): Locator {
  return page.getByTestId('resource-form');
}

/** Fills a field by its path (a select gets the option); a field on a hidden tab has its tab opened first. */
export async function fillField(page: Page, path: string, value: string): Promise<void> {
  const selector = `[name="${path}"]`;
  const input = resourceForm(page).locator(selector);
  if (!(await input.isVisible())) {
    // `has` is matched inside each panel, so it takes the bare selector, not the form-rooted locator.
    const panel = resourceForm(page)
      .locator('[role="tabpanel"]')
      .filter({ has: page.locator(selector) });
    const panelId = await panel.getAttribute('id');
    await resourceForm(page).locator(`[role="tab"][aria-controls="${panelId}"]`).click();
  }
  if ((await input.evaluate((element) => element.tagName)) === 'SELECT') await input.selectOption(value);
  else await input.fill(value);
}

export async function formReady(page: Page): Promise<void> {
  await page.locator('[data-testid="resource-form"][data-form-state="ready"]').waitFor();
}

const FINISHED = ['Success', 'Fail', 'Success With Async Failures'].map((status) => `[data-status="${status}"]`).join(',');

/** Waits for the transaction detail to show a final status, and returns it. */
export async function transactionFinished(page: Page): Promise<string> {
  const view = page.locator(`[data-testid="transaction-view"]:is(${FINISHED})`);
  await view.waitFor();
  return (await view.getAttribute('data-status')) ?? '';
}

/** The log's messages, oldest first, as shown. */
export async function logMessages(page: Page): Promise<string[]> {
  const entries = page.getByTestId('log-entry');
  await entries.first().waitFor();
  return entries.locator('.tx-log-message').allTextContents();
}

/** Saves the form and waits for the transaction it started to finish. */
export async function saveForm(page: Page): Promise<string> {
  await resourceForm(page).getByRole('button', { name: 'Save', exact: true }).click();
  return transactionFinished(page);
}

export function instanceView(page: Page): Locator {
  return page.locator('[data-testid="instance-view"][data-load-state="ready"]');
}

/** A field's shown value in the instance view's data list, found by its field name. */
export function shownField(page: Page, name: string): Locator {
  return instanceView(page)
    .locator('.inst-data .inst-field')
    .filter({ has: page.locator(`dt[title="${name}"]`) })
    .locator('dd')
    .first();
}

/** Opens a line's instance view from the list at a node, found with an equals filter. */
export async function openLine(page: Page, path: string, pattern: string): Promise<void> {
  await goToNode(page, path);
  await openModel(page, 'relation/LineRelation');
  await page.getByLabel('Filter 1 field').selectOption('pattern');
  await page.getByLabel('Filter 1 condition').selectOption('equals');
  await page.getByLabel('Filter 1 text').fill(pattern);
  await page.getByRole('form', { name: 'Filter' }).getByRole('button', { name: 'Apply' }).click();
  await page.getByTestId('page-range').getByText('1–1 of 1').waitFor();
  await listSettled(page);
  await dataRows(page).first().click();
  await instanceView(page).waitFor();
}
